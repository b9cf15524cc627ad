-- hotreload/rollback, version 2: migrates every instance.
return {
  properties = { id = 0 },
  onReload = function(self, old)
    self.touched = true
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("v2", self.id, self.n, ctx.frame, tostring(self.touched))
  end,
}
