-- reload/faulty, version 2: fixed.
return {
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("fixed", self.n)
  end,
}
