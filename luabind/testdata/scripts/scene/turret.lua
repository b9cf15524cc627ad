-- scene/turret: fires a bullet every `rate` frames.
return {
  properties = { rate = 3, fired = 0 },
  onUpdate = function(self, ctx)
    if ctx.frame % self.rate == 1 then
      self.fired = self.fired + 1
      local x = ctx.entity:position()
      local b = ctx.spawn({
        name = "bullet" .. self.fired,
        position = { x, 0, 0 },
        scripts = { { script = "scene/bullet", props = { id = self.fired, speed = 4 } } },
      })
      ctx.log("fired", b:name(), b:state())
    end
  end,
  onDestroy = function(self, ctx)
    print("turret: destroyed after firing", self.fired, "at frame", ctx.frame)
  end,
}
