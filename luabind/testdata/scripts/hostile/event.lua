-- hostile/event.lua: an endless loop in an event handler, run by the same
-- instance's onUpdate. The handler runs on its own clock while the
-- emitter's keeps running, so the emitter's clock runs out first: the
-- onUpdate is faulted at the emit line and never prints.
return {
  onUpdate = function(self, ctx)
    ctx.emit("spin", 1)
    print("emit returned")
  end,
  events = {
    spin = function(self, ctx, data)
      while true do end
    end,
  },
}
