-- The turret's target: handles damage, tells the world when it dies.
return {
  properties = { hp = 10 },
  onCreate = function(self, ctx)
    ctx.entity:tag("enemy")
  end,
  events = {
    damage = function(self, ctx, data, ev)
      self.hp = self.hp - data.amount
      if self.hp <= 0 and ctx.entity:kill() then
        ctx.emit("destroyed", { who = ctx.entity:id() })
        if ctx.find("tower") then ctx.log("a tower stands") end
      end
      return ev.last
    end,
  },
}
