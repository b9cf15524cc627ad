-- scene/director: runs the arena. It spawns the turret during setup,
-- announces every frame, and at frame 6 kills the turret.
return {
  priority = -10,
  onCreate = function(self, ctx)
    ctx.blackboard.score = 0
    self.turret = ctx.spawn({ name = "turret", position = { 0, 0, 0 }, scripts = { { script = "scene/turret", props = { rate = 2 } } } })
    print("director: spawned", self.turret, self.turret:state())
  end,
  onUpdate = function(self, ctx, dt)
    print(string.format("director: frame %d, time %.2f, score %d", ctx.frame, ctx.time, ctx.blackboard.score))
    if ctx.frame == 6 then
      print("director: kill turret ->", self.turret:kill(), self.turret:kill())
    elseif ctx.frame == 7 then
      print("director: turret alive?", self.turret:alive(), self.turret:state())
      local ok, err = pcall(self.turret.name, self.turret)
      print("director:", ok, err)
    end
  end,
  events = {
    died = function(self, ctx, data, ev)
      print("director: heard that", data.who, "died at x =", data.x)
    end,
  },
  onDestroy = function(self, ctx)
    print("director: shutdown at frame", ctx.frame, "final score", ctx.blackboard.score)
  end,
}
