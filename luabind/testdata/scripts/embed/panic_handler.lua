-- embed/panic_handler.lua: a Go panic in xpcall's handler is the
-- callback's Go panic, at the handler's line, not "error in error
-- handling".
return {
  onUpdate = function(self, ctx)
    local ok, err = xpcall(function() error("first") end, function(m)
      crash()
    end)
    print("swallowed", err)
  end,
}
