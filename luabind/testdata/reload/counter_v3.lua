-- reload/counter, version 3: onReload renames count to total.
return {
  properties = { step = 1, id = 0 },
  onReload = function(self, old)
    self.total = old.count
    self.count = nil
    self.history[#self.history + 1] = "v3"
    old.count = -1 -- old is a copy: this changes nothing
    print("migrated", self.id, self.total)
  end,
  onUpdate = function(self, ctx)
    self.total = self.total + self.step
    print("v3", self.id, self.total)
  end,
}
