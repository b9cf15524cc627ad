-- hotreload/fault, version 1: fails in its second update (line 9), which
-- faults the instance.
return {
  onCreate = function(self, ctx)
    self.n = 0
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    if self.n == 2 then error("broken on the second frame") end
    print("v1", self.n, ctx.frame)
  end,
}
