-- embed/self.lua: keeps state that Go reads with Host.Self and writes with
-- Host.SetSelf (TestSelf): numbers, a nested table, a vector and an entity
-- value; each frame it counts and prints what Go gave it.
return {
  properties = { hp = 10, stats = { level = 1, tags = { "a", "b" } } },

  onCreate = function(self, ctx)
    self.home = vec3(1, 2, 3)
    self.me = ctx.entity
  end,

  onUpdate = function(self, ctx)
    self.frames = (self.frames or 0) + 1
    if self.target then
      print("target", self.target:id(), self.target:state())
    end
    if self.gift then
      print("gift", self.gift.item, self.gift.count, self.gift.spot.y)
    end
  end,
}
