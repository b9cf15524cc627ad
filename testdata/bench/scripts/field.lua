-- Spawns `count` wanderers in rows of 100, one unit apart, starting at
-- row `row`: the realistic benchmark scene in a few lines of JSON. Their
-- phases spread their timers over 30 frames.
return {
  properties = { count = 1000, row = 0 },
  onCreate = function(self, ctx)
    for i = 0, self.count - 1 do
      ctx.spawn({
        position = { i % 100, 0, self.row + math.floor(i / 100) },
        scripts = { { script = "wanderer", props = { phase = (i % 30 + 1) / 60 } } },
      })
    end
  end,
}
