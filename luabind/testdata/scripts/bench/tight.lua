-- bench/tight.lua: a tight loop of arithmetic, 100,000 iterations a
-- call: what the per-instruction budget check costs shows in full.
return {
  onUpdate = function(self, ctx, dt)
    local x = 0
    for i = 1, 100000 do
      x = x + i * dt
    end
    self.x = x
  end,
}
