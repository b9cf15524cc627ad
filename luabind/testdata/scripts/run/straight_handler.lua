-- run/straight_handler.lua: an event handler and a timer callback of
-- straight-line code (no call, no loop), charged their length at once.
return {
  onCreate = function(self, ctx)
    self.n, self.sum, self.ticks = 0, 0, 0
    ctx.every(0.1, "tick")
  end,
  tick = function(self, ctx)
    self.ticks = self.ticks + 1
    self.sum = self.sum * 0.5 + self.ticks
  end,
  events = {
    poke = function(self, ctx, data)
      self.n = self.n + 1
      if data > 2 then self.sum = self.sum + data * 3 - self.n else self.sum = self.sum - data end
      self.last = self.sum / 7
      self.mid = (self.last + self.n) * 0.5
      self.hi = self.mid * self.mid - self.last
      return self.n
    end,
  },
  onDestroy = function(self, ctx) print(self.n, self.ticks, self.sum, self.hi) end,
}
