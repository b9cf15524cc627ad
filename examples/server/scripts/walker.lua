-- walker: walks along x at `speed` units a second and turns back at the
-- ends of the road (0 and 20). The road's west half (x < 10) is one
-- zone, its east half another: the server hands a walker over when it
-- crosses x = 10.
return {
  properties = { speed = 4, turns = 0 },
  onUpdate = function(self, ctx, dt)
    local x, y, z = ctx.entity:position()
    x = x + self.speed * dt
    if (x > 20 and self.speed > 0) or (x < 0 and self.speed < 0) then
      self.speed = -self.speed
      self.turns = self.turns + 1
    end
    ctx.entity:setPosition(x, y, z)
  end,
  onImport = function(self, ctx)
    ctx.log("arrived, turned " .. self.turns .. " times")
  end,
}
