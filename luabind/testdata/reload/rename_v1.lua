-- reload/rename, version 1: counts its updates in self.count.
return {
  onCreate = function(self, ctx) self.count = 0 end,
  onUpdate = function(self, ctx)
    self.count = self.count + 1
    print("count", self.count)
  end,
}
