-- The enemy of a tower-defence game, as a designer writes it: each frame
-- it scores every cell of a 400 x 400 grid around it to choose its next
-- step, some 1.65 million instructions, most of the load test's 2M
-- budget. Counted as work it is never faulted, however busy or frozen
-- the machine; measured by the clock it was, on a loaded machine.
return {
  onCreate = function(self, ctx)
    self.x, self.y, self.best = 0, 0, 0
  end,
  onUpdate = function(self, ctx)
    local best, bx, by = -1, 0, 0
    for i = -200, 199 do
      for j = -200, 199 do
        local score = (i * 31 + j * 17 + ctx.frame * 7) % 101
        if score > best then
          best, bx, by = score, i, j
        end
      end
    end
    self.x, self.y, self.best = self.x + bx % 3 - 1, self.y + by % 3 - 1, best
    self.trail = string.rep("#", 200 + ctx.frame) .. self.x
    print("enemy", ctx.frame, self.x, self.y, best, #self.trail, math.random(1000))
  end,
}
