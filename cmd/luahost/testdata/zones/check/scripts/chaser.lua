-- chaser keeps entity values of other entities in self (target, first,
-- spawned), which is fine in a zoned world; its onExport and onImport
-- run only when its entity changes zones: check warns about those.
return {
  onCreate = function(self, ctx)
    self.target = ctx.find("prey")
    self.first = ctx.query({ tag = "prey" })[1]
  end,
  onUpdate = function(self, ctx)
    local near = ctx.find("prey")
    if near then
      self.spawned = ctx.spawn({ position = { near:position() } })
      self.target = ctx.find("prey")
    end
  end,
  onExport = function(self, ctx) print("leaving") end,
  onImport = function(self, ctx) print("arriving") end,
}
