-- ctx.entity, ctx.frame, ctx.time and ctx.dt: 0 during setup, frame 1 in
-- the first Step, time the sum of dt; at shutdown the last frame's numbers.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    check.eq(ctx.frame, 0, "ctx.frame during setup")
    check.eq(ctx.time, 0, "ctx.time during setup")
    check.eq(ctx.dt, 0, "ctx.dt during setup")
    check.eq(ctx.entity:name(), "subject", "ctx.entity")
    check.fails("ctx.entity is read-only", function() ctx.entity = 1 end)
    check.eq(ctx.entity:name(), "subject", "ctx.entity is unchanged")
    ctx.note = "mine"
    check.eq(ctx.note, "mine", "other fields may be set")
    ctx.note = nil
    self.frames, self.sum = 0, 0
  end,

  onUpdate = function(self, ctx, dt)
    self.frames = self.frames + 1
    self.sum = self.sum + dt
    check.eq(ctx.frame, self.frames, "ctx.frame")
    check.eq(ctx.dt, dt, "ctx.dt is the third argument")
    check.eq(ctx.time, self.sum, "ctx.time sums dt, this frame included")
    check.eq(ctx.entity, ctx.find("subject"), "ctx.entity")
  end,

  onDestroy = function(self, ctx)
    check.eq(ctx.frame, 3, "ctx.frame at shutdown is the last frame's")
    check.eq(ctx.time, 0.875, "ctx.time at shutdown")
    check.eq(self.frames, 3, "onUpdate ran every frame")
    done()
  end,
}
