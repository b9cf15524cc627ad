-- reload/effects, a version refused at instance 2: the side effects of
-- instance 1's onReload (and instance 2's, before its error) must never
-- happen.
return {
  properties = { id = 0 },
  onReload = function(self, old, ctx)
    print("onReload", self.id)
    self.victim:send("ping", self.id)
    self.victim:attach("reload/victim")
    print("kill returned", self.victim:kill())
    ctx.spawn({ name = "newborn" .. self.id, scripts = { "reload/victim" } })
    ctx.blackboard["reloaded" .. self.id] = true
    if self.id == 2 then error("cannot migrate instance 2") end
  end,
}
