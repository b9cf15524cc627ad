-- strider is the benchmarks' walking entity: it walks along x between
-- -1000 and 1000 at its speed, turning at either end.
return {
  properties = { speed = 10, dir = 1 },
  onUpdate = function(self, ctx, dt)
    local x = ctx.entity:position() + self.dir * self.speed * dt
    if x > 1000 then
      x, self.dir = 1000, -1
    elseif x < -1000 then
      x, self.dir = -1000, 1
    end
    ctx.entity:setPosition(x, 0, 0)
  end,
}
