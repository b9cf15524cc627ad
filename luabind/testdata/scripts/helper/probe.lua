-- helper/probe.lua: records its lifecycle on the blackboard under its tag:
-- created.TAG and destroyed.TAG hold ctx.frame of onCreate and onDestroy,
-- first.TAG the frame of its first onUpdate, updates.TAG how many it had.
return {
  properties = { tag = "probe" },
  onCreate = function(self, ctx)
    ctx.blackboard["created." .. self.tag] = ctx.frame
  end,
  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    if bb["first." .. self.tag] == nil then bb["first." .. self.tag] = ctx.frame end
    bb["updates." .. self.tag] = (bb["updates." .. self.tag] or 0) + 1
  end,
  onDestroy = function(self, ctx)
    ctx.blackboard["destroyed." .. self.tag] = ctx.frame
  end,
}
