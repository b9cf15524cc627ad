-- reload/faulty, version 1: fails in its second update.
return {
  onUpdate = function(self, ctx)
    self.n = (self.n or 0) + 1
    print("faulty", self.n)
    if self.n == 2 then error("boom") end
  end,
}
