-- enemy walks along x toward its base; damage from towers lowers its hp
-- and tags it "weak" once it is low, so that a tower kills it outright;
-- one that reaches the base tells the base and dies there.
return {
  onUpdate = function(self, ctx)
    local x, y, z = ctx.entity:position()
    if x >= 40 then
      self.base:send("leak", { who = ctx.entity:name(), hp = self.hp })
      ctx.entity:kill()
      return
    end
    ctx.entity:setPosition(x + self.speed, y, z)
  end,
  onDestroy = function(self, ctx)
    print("enemy", self.n, "gone in frame", ctx.frame, "hp", self.hp)
  end,
  events = {
    damage = function(self, ctx, data)
      self.hp = self.hp - data.amount
      print("enemy", self.n, "hit by", data.by:name(), "for", data.amount, "hp", self.hp, "spawner alive", self.spawner:alive())
      if self.hp <= 3 then ctx.entity:tag("weak") end
    end,
  },
}
