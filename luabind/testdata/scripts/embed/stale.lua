-- embed/stale.lua: kills its own entity's sibling, then uses the stale
-- handle in the next frame: a stale-handle fault.
return {
  onUpdate = function(self, ctx)
    if self.victim then
      self.victim:setPosition(1, 2, 3)
    end
    self.victim = ctx.spawn({})
    self.victim:kill()
  end,
}
