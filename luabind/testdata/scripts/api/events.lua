-- ctx.emit and e:send: handlers run synchronously in schedule order
-- (priority, then attach order) with (self, ctx, data, ev); ev.last is the
-- previous handler's result, ev.mask the notify mask, ev:stop() ends the
-- dispatch and makes emit return false. Data crosses states as copies.
local check = require("lib.check")

local function listener(script, tag)
  return { name = tag, scripts = { { script = script, props = { tag = tag } } } }
end

local function ping(stopAt)
  return { path = ">", list = { 1 }, stopAt = stopAt }
end

return {
  onCreate = function(self, ctx)
    -- attach order L1, E, L2; E has the lowest priority
    ctx.spawn(listener("helper/listener", "L1"))
    ctx.spawn(listener("helper/listener_first", "E"))
    self.l2 = ctx.spawn(listener("helper/listener", "L2"))
    check.eq(ctx.emit("ping", ping()), true, "nobody listening yet")
    check.eq(ctx.blackboard.calls, nil, "Pending listeners get no events")
  end,

  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    if ctx.frame ~= 1 then
      if ctx.frame == 2 then done() end
      return
    end
    local data = ping()
    check.eq(ctx.emit("ping", data), true, "a dispatch that ran to the end")
    check.eq(bb.calls, "EL1L2", "priority, then attach order")
    check.eq(bb.path, ">EL1L2", "ev.last chains each handler's result to the next")
    check.eq(bb.mask, -1, "the default mask")
    check.eq(data.list[1], 1, "the emitter's data is unchanged")
    check.eq(ctx.entity:name(), "subject", "ctx.entity is restored after a dispatch")

    bb.calls = nil
    check.eq(ctx.emit("ping", ping("L1")), false, "a stopped dispatch returns false")
    check.eq(bb.calls, "EL1", "later observers are not called")

    bb.calls = nil
    check.eq(ctx.emit("ping", ping(), 6), true, "with a mask")
    check.eq(bb.mask, 6, "ev.mask is the notify mask")
    bb.calls = nil
    check.eq(ctx.emit("ping", ping(), 0), true, "mask 0 reaches nobody")
    check.eq(bb.calls, nil, "nobody")

    bb.calls = nil
    check.eq(self.l2:send("ping", ping()), true, "e:send")
    check.eq(bb.calls, "L2", "reaches only that entity's instances")

    check.eq(ctx.emit("nobody-listens", { 1 }), true, "an event without observers")
    check.eq(ctx.emit("other"), true, "data is optional")
    check.eq(bb.other, "EL1L2", "every instance handles 'other'")
  end,
}
