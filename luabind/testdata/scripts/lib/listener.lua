-- lib/listener.lua: builds a listener script of the given priority. Its
-- "ping" handler checks its arguments, records the call, and returns the
-- path so far with its tag appended (the next observer's ev.last).
local check = require("lib.check")

return function(priority)
  return {
    priority = priority,
    properties = { tag = "?" },
    events = {
      ping = function(self, ctx, data, ev)
        check.eq(ctx.entity:name(), self.tag, "ctx.entity in a handler is the listener's")
        check.eq(ev.name, "ping", "ev.name")
        check.eq(type(ev.mask), "number", "ev.mask")
        check.eq(data.path, ">", "each handler gets the event data as sent")
        check.eq(data.list[1], 1, "unchanged by an earlier handler")
        data.list[1] = 99
        local bb = ctx.blackboard
        bb.calls = (bb.calls or "") .. self.tag
        bb.mask = ev.mask
        local last = ev.last
        bb.path = last.path .. self.tag
        self.kept = ev
        if data.stopAt == self.tag then ev:stop() end
        return { path = last.path .. self.tag, list = { 1 } }
      end,
      other = function(self, ctx, data, ev)
        ctx.blackboard.other = (ctx.blackboard.other or "") .. self.tag
        return ev.last
      end,
    },
    onUpdate = function(self, ctx)
      if self.kept then
        -- an ev kept past its handler is inert
        check.eq(self.kept.mask, nil, "a kept ev")
        self.kept:stop()
      end
    end,
  }
end
