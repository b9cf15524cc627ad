-- scene/bullet: flies along x; at x >= 2 it hits: emits "hit" and dies.
return {
  properties = { id = 0, speed = 1 },
  onUpdate = function(self, ctx, dt)
    local e = ctx.entity
    local x = e:position()
    x = x + self.speed * dt
    e:setPosition(x, 0, 0)
    if x >= 2 then
      local delivered = ctx.emit("hit", { bullet = self.id, x = x })
      print("bullet" .. self.id .. ": hit at x =", x, "delivered:", delivered)
      ctx.emit("died", { who = e:name(), x = x })
      e:kill()
    end
  end,
  onDestroy = function(self, ctx)
    print("bullet" .. self.id .. ": destroyed in frame", ctx.frame)
  end,
}
