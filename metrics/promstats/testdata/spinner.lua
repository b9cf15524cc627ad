-- spinner: turns by speed degrees a second.
return {
  properties = { angle = 0, speed = 90 },
  onUpdate = function(self, ctx, dt) self.angle = self.angle + self.speed * dt end,
}
