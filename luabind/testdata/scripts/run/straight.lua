-- run/straight.lua: an onUpdate of straight-line code (no call, no loop),
-- charged its length at once, longer than its chunk and onCreate.
return {
  properties = { speed = 90 },
  onCreate = function(self, ctx) self.angle = 0 end,
  onUpdate = function(self, ctx, dt)
    if self.angle < 1000 then self.angle = self.angle + self.speed * dt else self.angle = 0 end
    self.a = self.angle * 2 + 1
    self.b = self.a - self.angle / 3
    self.c = (self.a + self.b) * (self.a - self.b)
    self.d = self.c * 7 + self.b - 5
  end,
  onDestroy = function(self, ctx) print(self.angle, self.d) end,
}
