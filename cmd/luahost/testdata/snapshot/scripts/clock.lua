-- clock: an every timer and a once timer with data, printing when they
-- fire, and a count kept in self across a save and restore.
return {
  properties = { ticks = 0 },
  onCreate = function(self, ctx)
    ctx.every(0.25, "tick")
    ctx.after(2.5, "alarm", { text = "wake up" })
  end,
  tick = function(self, ctx)
    self.ticks = self.ticks + 1
    print(ctx.frame, ctx.entity:name(), "tick", self.ticks, math.random(1, 6))
  end,
  alarm = function(self, ctx, data)
    print(ctx.frame, ctx.entity:name(), data.text)
  end,
  onDestroy = function(self, ctx) print(ctx.frame, ctx.entity:name(), "stopped at", self.ticks) end,
}
