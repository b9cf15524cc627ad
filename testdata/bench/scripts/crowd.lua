-- Spawns `count` spinners during setup, so that a scene of 10,000 entities
-- fits in a few lines of JSON.
return {
  properties = { count = 10000 },
  onCreate = function(self, ctx)
    for i = 1, self.count do
      ctx.spawn({ scripts = { "spinner" } })
    end
  end,
}
