-- The benchmark spinner without the onDestroy print: the scale
-- benchmarks' body, so that closing a million entities writes nothing.
return {
  properties = { speed = 90 },
  onCreate = function(self, ctx) self.angle = 0 end,
  onUpdate = function(self, ctx, dt) self.angle = self.angle + self.speed * dt end,
}
