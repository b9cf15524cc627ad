-- embed/panic_blackboard.lua: a panic in the blackboard's OnSet hook,
-- met by a script's write inside pcall, fails the callback as a Go panic.
return {
  onUpdate = function(self, ctx)
    local ok, err = pcall(function() ctx.blackboard.gold = 5 end)
    print("swallowed", err)
  end,
}
