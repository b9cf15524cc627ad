-- mortal moves one unit along x a frame and kills itself in frame dies;
-- at its end it prints a walker's line, as walker does.
return {
  properties = { n = 0, dies = 3, updates = 0 },
  onUpdate = function(self, ctx)
    self.updates = self.updates + 1
    local x = ctx.entity:position()
    ctx.entity:setPosition(x + 1, 0, 0)
    if ctx.frame == self.dies then ctx.entity:kill() end
  end,
  onDestroy = function(self)
    print(string.format("walker %d updates %d bad 0", self.n, self.updates))
  end,
}
