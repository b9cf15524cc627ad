-- The benchmark spinner: the body every performance figure is measured on.
return {
  properties = { speed = 90 },
  onCreate = function(self, ctx) self.angle = 0 end,
  onUpdate = function(self, ctx, dt) self.angle = self.angle + self.speed * dt end,
}
