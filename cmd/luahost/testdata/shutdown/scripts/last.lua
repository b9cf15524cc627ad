-- Priority 9: destroyed after the priority 0 instances at shutdown.
return {
  priority = 9,
  onDestroy = function(self, ctx)
    print("last", ctx.entity:name(), "frame", ctx.frame)
  end,
}
