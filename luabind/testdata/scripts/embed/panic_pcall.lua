-- embed/panic_pcall.lua: a Go panic in a registered function cannot be
-- caught by pcall: the callback fails of it, and "swallowed" is never
-- printed.
return {
  onUpdate = function(self, ctx)
    local ok, err = pcall(crash)
    print("swallowed", err)
  end,
}
