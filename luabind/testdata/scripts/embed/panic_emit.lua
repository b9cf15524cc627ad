-- embed/panic_emit.lua: a Go observer's panic, met by ctx.emit inside
-- pcall, fails the callback as a Go panic.
return {
  onUpdate = function(self, ctx)
    local ok, err = pcall(ctx.emit, "boom", {})
    print("swallowed", err)
  end,
}
