return {
  priority = 10,
  properties = { speed = 90 },
  onCreate = function(self, ctx) self.angle = 0 end,
  onUpdate = function(self, ctx, dt) self.angle = self.angle + self.speed * dt end,
  onDestroy = function(self, ctx) print("bye", ctx.entity:id(), self.angle, ctx.frame) end,
}
