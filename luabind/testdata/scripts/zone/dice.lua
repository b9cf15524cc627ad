-- dice draws from math.random every frame and prints what it drew, with
-- self.tag naming the entity; on its second update it spawns a child
-- that draws too, and self.reseed, when set, reseeds on its third.
return {
  properties = { tag = "?", n = 0 },
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    if self.n == 2 and not self.child then
      ctx.spawn({ scripts = { { script = "zone/dice", props = { tag = self.tag .. ".child", child = true } } } })
    end
    if self.reseed and self.n == 3 then
      math.randomseed(self.reseed)
    end
    print(self.tag, math.random(1000), math.random())
  end,
}
