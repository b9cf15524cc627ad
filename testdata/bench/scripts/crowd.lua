-- Spawns `count` spinners during setup, so that a scene of 10,000 entities
-- fits in a few lines of JSON. The scene uses ten crowds of 1,000, so that
-- no single onCreate comes near its time budget on a busy machine.
return {
  properties = { count = 1000 },
  onCreate = function(self, ctx)
    for i = 1, self.count do
      ctx.spawn({ scripts = { "spinner" } })
    end
  end,
}
