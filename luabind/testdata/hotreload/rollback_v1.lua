-- hotreload/rollback, version 1: numbered instances that count frames.
-- "touched" is never set by this version; a reload that leaked into the
-- old state would show it.
return {
  properties = { id = 0 },
  onCreate = function(self, ctx)
    self.n = 0
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("v1", self.id, self.n, ctx.frame, tostring(self.touched))
  end,
}
