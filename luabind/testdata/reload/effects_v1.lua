-- reload/effects, version 1: each instance (props id) spawns a victim
-- entity, named victimID, that the next versions' onReload act on.
return {
  properties = { id = 0 },
  onCreate = function(self, ctx)
    self.victim = ctx.spawn({ name = "victim" .. self.id, scripts = { "reload/victim" } })
  end,
}
