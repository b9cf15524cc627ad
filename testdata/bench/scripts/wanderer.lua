-- The realistic benchmark's entity: it moves by its velocity every frame
-- (ctx.entity, position, vec3 arithmetic, setPosition) and, twice a second
-- from a start that depends on its phase, turns round, looks for its
-- neighbours and bumps them (a timer, a radius query, e:send and an
-- event handler).
return {
  properties = { speed = 1, phase = 0.1 },
  onCreate = function(self, ctx)
    local a = self.phase * 7
    self.vel = vec3(math.cos(a), 0, math.sin(a)) * self.speed
    self.bumps = 0
    ctx.after(self.phase, "start")
  end,
  start = function(self, ctx)
    ctx.every(0.5, "think")
  end,
  onUpdate = function(self, ctx, dt)
    local e = ctx.entity
    e:setPosition(vec3(e:position()) + self.vel * dt)
  end,
  think = function(self, ctx)
    self.vel = -self.vel
    local me = ctx.entity
    local near = ctx.query{ near = me, radius = 1.5, limit = 5 }
    for i = 1, #near do
      if near[i] ~= me then near[i]:send("bump", 1) end
    end
  end,
  events = {
    bump = function(self, ctx, n) self.bumps = self.bumps + n end,
  },
}
