-- hotreload/rollback, a version whose onReload fails for instance 2 (on
-- line 9), after it changed both tables of every instance before it.
return {
  properties = { id = 0 },
  onReload = function(self, old)
    self.touched = true
    old.touched = true
    old.n = -1
    if old.id == 2 then error("cannot migrate instance 2") end
  end,
  onUpdate = function(self, ctx)
    print("bad version ran", self.id)
  end,
}
