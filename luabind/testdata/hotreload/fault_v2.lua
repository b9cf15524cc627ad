-- hotreload/fault, version 2: the fix; a faulted instance runs again.
return {
  onCreate = function(self, ctx)
    self.n = 0
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("v2", self.n, ctx.frame)
  end,
}
