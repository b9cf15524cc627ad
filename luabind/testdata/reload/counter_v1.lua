-- reload/counter, version 1: counts its updates.
return {
  properties = { step = 1, id = 0 },
  onCreate = function(self, ctx)
    self.count = 0
    self.me = ctx.entity
    self.history = { "v1" }
    print("create", self.id)
  end,
  onUpdate = function(self, ctx)
    self.count = self.count + self.step
    print("v1", self.id, self.count)
  end,
}
