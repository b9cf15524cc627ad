-- onReload fails for the instance with id 2, after changing both tables
-- of the instance before it.
return {
  properties = { step = 1000, id = 0 },
  onReload = function(self, old)
    self.count = 999
    old.count = 999
    if old.id == 2 then error("cannot migrate instance 2") end
  end,
  onUpdate = function(self, ctx)
    print("bad version ran")
  end,
}
