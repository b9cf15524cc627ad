-- critter: random hit points, a random walk, a timer that grows it and
-- an entity value of its nearest neighbour, all saved in snapshots.
return {
  properties = { hp = 0 },
  onCreate = function(self, ctx)
    self.hp = math.random(5, 10)
    ctx.after(math.random() * 0.5, "grow", { by = 1 })
  end,
  grow = function(self, ctx, data)
    self.hp = self.hp + data.by
    ctx.blackboard.grown = (ctx.blackboard.grown or 0) + 1
    ctx.after(0.2, "grow", { by = data.by + 1 })
  end,
  onUpdate = function(self, ctx, dt)
    local p = vec3(ctx.entity:position())
    ctx.entity:setPosition(p + vec3(math.random() - 0.5, 0, math.random() - 0.5))
    local near = ctx.query{ tag = "critter", near = ctx.entity, radius = 6, limit = 2 }
    self.friend = near[2]
  end,
  onDestroy = function(self, ctx)
    local f = self.friend and self.friend:alive() and self.friend:id() or "none"
    print(ctx.frame, "bye", ctx.entity:id(), self.hp, f)
  end,
}
