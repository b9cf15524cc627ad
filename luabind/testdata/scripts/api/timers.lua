-- ctx.after, ctx.every, ctx.cancel: timers fire in the
-- instance's turn before its onUpdate, in due-time order (ties in creation
-- order); an every timer fires at most once a frame, next due = previous
-- due + period; a timer made while timers fire waits for the next frame;
-- the named function is looked up in the script table with (self, ctx,
-- data). Frames end at times 0.25, 0.75 and 0.875.
local check = require("lib.check")

local function log(self, what) self.log[#self.log + 1] = what end

return {
  onCreate = function(self, ctx)
    self.log = {}
    ctx.after(0.25, "first", { n = 1 })
    self.tick = ctx.every(0.25, "tick")
    ctx.after(0.25, "second", vec3(1, 2, 3))
    local never = ctx.after(0.1, "never")
    check.eq(type(never), "number", "ctx.after returns an id")
    check.eq(ctx.cancel(never), true, "cancel a pending timer")
    check.eq(ctx.cancel(never), false, "cancel it again")
    check.eq(ctx.cancel(12345), false, "cancel an unknown id")
    check.fails("the period must be positive", ctx.every, 0, "tick")
    check.fails("seconds must not be negative", ctx.after, -1, "tick")
    check.fails("want the name of a function", ctx.after, 1, 42)
    check.fails("cannot store a function", ctx.after, 1, "tick", print)
  end,

  first = function(self, ctx, data)
    log(self, "first " .. data.n .. " at " .. ctx.time)
    ctx.after(0, "zero") -- made while timers fire: waits for the next frame
  end,
  second = function(self, ctx, v)
    check.eq(getmetatable(v), "vec3", "timer data keeps vectors")
    log(self, "second " .. tostring(v))
  end,
  tick = function(self, ctx, data)
    check.eq(data, nil, "no data")
    log(self, "tick " .. ctx.frame)
  end,
  zero = function(self, ctx) log(self, "zero " .. ctx.frame) end,
  never = function(self, ctx) log(self, "never") end,

  onUpdate = function(self, ctx)
    log(self, "update " .. ctx.frame)
    if ctx.frame == 3 then
      check.eq(ctx.cancel(self.tick), true, "cancel an every timer")
      check.same(self.log, {
        "first 1 at 0.25", "tick 1", "second vec3(1, 2, 3)", "update 1",
        "zero 2", "tick 2", "update 2", -- zero was due at 0.25, tick at 0.5
        "tick 3", "update 3",
      }, "timer order")
      done()
    end
  end,
}
