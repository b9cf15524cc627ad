-- hotreload/rename, version 1: counts frames in self.x.
return {
  onCreate = function(self, ctx)
    self.x = 0
  end,
  onUpdate = function(self, ctx)
    self.x = self.x + 1
    print("x", self.x, ctx.frame)
  end,
}
