-- helper/leaver.lua: detaches itself with ctx.detach() in its first
-- onUpdate and records what happens next.
return {
  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    bb["leaver.updates"] = (bb["leaver.updates"] or 0) + 1
    ctx.detach()
    bb["leaver.after"] = "the callback runs to its end"
  end,
  onDestroy = function(self, ctx)
    ctx.blackboard["leaver.destroyed"] = ctx.frame
  end,
}
