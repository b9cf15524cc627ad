-- embed/panic_xpcall.lua: xpcall neither catches a Go observer's panic
-- nor runs its handler on it.
return {
  onUpdate = function(self, ctx)
    local ok, err = xpcall(function() ctx.emit("boom", {}) end, function(m)
      print("handler ran", m)
      return m
    end)
    print("swallowed", err)
  end,
}
