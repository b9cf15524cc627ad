-- hostile/event.lua: an endless loop in an event handler.
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
