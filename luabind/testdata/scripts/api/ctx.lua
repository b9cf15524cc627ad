-- ctx.entity, ctx.frame, ctx.time and ctx.dt: 0 during setup, frame 1 in
-- the first Step, time the sum of dt; at shutdown the last frame's numbers.
-- ctx is read-only: a write raises an error naming the field.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    check.eq(ctx.frame, 0, "ctx.frame during setup")
    check.eq(ctx.time, 0, "ctx.time during setup")
    check.eq(ctx.dt, 0, "ctx.dt during setup")
    check.eq(ctx.entity:name(), "subject", "ctx.entity")
    check.fails("ctx.entity is read-only", function() ctx.entity = 1 end)
    check.eq(ctx.entity:name(), "subject", "ctx.entity is unchanged")
    -- ctx.entity, once read, is a field ctx holds: every way of writing
    -- it by name is still refused, and other tables' entity fields are
    -- written as ever, through their __newindex where they have one.
    check.fails("ctx.entity is read-only", function() ctx["entity"] = 1 end)
    check.fails("ctx.entity is read-only", function() local c = ctx; c.entity = false end)
    check.fails("ctx.entity is read-only", function() local a; a, ctx.entity = 1, 2 end)
    check.fails("cannot set ctx.entity: ctx is read-only", function() rawset(ctx, "entity", 1) end)
    check.fails("cannot set ctx.score: ctx is read-only", function() rawset(ctx, "score", 1) end)
    check.eq(ctx.entity:name(), "subject", "ctx.entity is still unchanged")
    local plain = {}
    plain.entity = 7
    local seen
    local guarded = setmetatable({}, { __newindex = function(t, k, v) seen = k .. "=" .. v end })
    guarded.entity, plain["entity"] = 3, plain.entity + 1
    check.eq(plain.entity, 8, "a table's own entity field")
    check.eq(seen, "entity=3", "a table's __newindex")
    check.fails("ctx.frame is read-only", function() ctx.frame = 99 end)
    check.eq(ctx.frame, 0, "ctx.frame is unchanged")
    check.fails("ctx.time is read-only", function() ctx.time = 5 end)
    check.fails("ctx.emit is read-only", function() ctx.emit = print end)
    check.fails("cannot set ctx.score: ctx is read-only", function() ctx.score = 5 end)
    check.eq(ctx.score, nil, "nothing was stored")
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
