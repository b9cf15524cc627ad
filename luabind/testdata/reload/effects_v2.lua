-- reload/effects, version 2: onReload acts on the world (send, attach,
-- kill, spawn, a blackboard write); all of it waits for the reload to
-- commit.
return {
  properties = { id = 0 },
  onReload = function(self, old, ctx)
    print("onReload", self.id)
    self.victim:send("ping", self.id)
    self.victim:attach("reload/victim")
    print("kill returned", self.victim:kill())
    ctx.spawn({ name = "newborn" .. self.id, scripts = { "reload/victim" } })
    ctx.blackboard["reloaded" .. self.id] = true
  end,
}
