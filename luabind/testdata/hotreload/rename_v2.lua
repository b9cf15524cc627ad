-- hotreload/rename, version 2: the count moved to self.y; onReload renames
-- the field of every live instance.
return {
  onCreate = function(self, ctx)
    self.y = 0
  end,
  onReload = function(self, old)
    self.y = old.x
    self.x = nil
  end,
  onUpdate = function(self, ctx)
    self.y = self.y + 1
    print("y", self.y, ctx.frame, tostring(self.x))
  end,
}
