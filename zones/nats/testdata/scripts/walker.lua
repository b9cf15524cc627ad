-- walker walks along x between lo and hi, turning at either end, and
-- checks that it is updated exactly once per frame wherever it is: bad
-- counts the frames it skipped or saw twice. At shutdown it prints its
-- number, its updates and its bad count.
return {
  properties = { n = 0, lo = -10, hi = 10, speed = 60, dir = 1, updates = 0, bad = 0 },
  onUpdate = function(self, ctx, dt)
    if self.last and ctx.frame ~= self.last + 1 then self.bad = self.bad + 1 end
    self.last = ctx.frame
    self.updates = self.updates + 1
    local x = ctx.entity:position() + self.dir * self.speed * dt
    if x > self.hi then
      x, self.dir = self.hi, -1
    elseif x < self.lo then
      x, self.dir = self.lo, 1
    end
    ctx.entity:setPosition(x, 0, 0)
  end,
  onDestroy = function(self)
    print(string.format("walker %d updates %d bad %d", self.n, self.updates, self.bad))
  end,
}
