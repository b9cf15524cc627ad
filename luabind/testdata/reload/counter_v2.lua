-- reload/counter, version 2: a new property, and a new default for an old
-- one, which reaches every instance that never changed it (tuned).
return {
  properties = { step = 5, id = 0, bonus = 100 },
  onCreate = function(self, ctx)
    print("create again?", self.id)
  end,
  onUpdate = function(self, ctx)
    self.count = self.count + self.step
    print("v2", self.id, self.count, self.bonus)
  end,
}
