-- Circles around the origin at radius, one turn in period seconds,
-- starting at phase (a fraction of a turn): a crowd for the inspector's
-- browser test and its screenshot.
return {
  properties = { radius = 10, period = 20, phase = 0, turns = 0 },
  onUpdate = function(self, ctx, dt)
    self.turns = self.turns + dt / self.period
    local a = 2 * math.pi * (self.phase + self.turns)
    ctx.entity:setPosition(self.radius * math.cos(a), 0, self.radius * math.sin(a))
  end,
}
