-- cause/timer.lua: gives a timer data holding a coroutine; the report
-- wraps runtime.ErrNotPlain.
return {
  tick = function() end,
  onUpdate = function(self, ctx)
    ctx.after(1, "tick", { co = coroutine.create(function() end) })
  end,
}
