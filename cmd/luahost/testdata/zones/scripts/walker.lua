-- walker walks along x between -10 and 10, turning at either end, prints
-- where it is every frame, ticks every quarter second (a timer, which
-- must cross zone edges with it) and prints its totals at shutdown. It
-- looks at nothing but itself, so the lines it prints, once sorted, do
-- not depend on how many zones the world is cut into.
return {
  properties = { n = 0, speed = 40, dir = 1, ticks = 0 },
  onCreate = function(self, ctx) ctx.every(0.25, "tick") end,
  tick = function(self) self.ticks = self.ticks + 1 end,
  onUpdate = function(self, ctx, dt)
    local x = ctx.entity:position() + self.dir * self.speed * dt
    if x > 10 then
      x, self.dir = 10, -1
    elseif x < -10 then
      x, self.dir = -10, 1
    end
    ctx.entity:setPosition(x, 0, 0)
    print(string.format("frame %d walker %d x %.4f", ctx.frame, self.n, x))
  end,
  onDestroy = function(self, ctx)
    print(string.format("walker %d ticks %d at %.4f", self.n, self.ticks, (ctx.entity:position())))
  end,
}
