-- One script whose instances do different things in one run of the
-- schedule: update, fail, loop past the budget, fire a timer and fail.
return {
  properties = { kind = "ok", n = 0 },
  onCreate = function(self, ctx)
    if self.kind == "timer" then ctx.every(1 / 30, "tick") end
  end,
  onUpdate = function(self, ctx, dt)
    self.n = self.n + 1
    print(ctx.entity:name(), self.kind, self.n)
    if self.kind == "fail" and self.n == 12 then error("failed on purpose") end
    if self.kind == "loop" and self.n == 12 then while true do end end
    if self.kind == "timer" and self.n == 20 then error("failed after its tick") end
  end,
  tick = function(self, ctx) print(ctx.entity:name(), "tick") end,
}
