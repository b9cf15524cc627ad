-- cause/blackboard.lua: stores a function on the blackboard; the report
-- wraps runtime.ErrNotPlain.
return {
  onUpdate = function(self, ctx)
    ctx.blackboard.cb = function() end
  end,
}
