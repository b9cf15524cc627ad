-- chaser keeps entity values of other entities in self (target, first,
-- spawned): check warns about each in a zoned world. Its own entity,
-- values in locals and values it finds again every frame are fine.
return {
  onCreate = function(self, ctx)
    self.target = ctx.find("prey")
    self.first = ctx.query({ tag = "prey" })[1]
    self.me = ctx.entity
  end,
  onUpdate = function(self, ctx)
    local near = ctx.find("prey")
    if near then
      self.spawned = ctx.spawn({ position = { near:position() } })
      self.target = ctx.find("prey")
    end
  end,
}
