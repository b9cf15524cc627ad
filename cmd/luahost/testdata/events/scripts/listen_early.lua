-- A ping listener of priority -1: called before the priority 0 ones,
-- though attached last. It also answers pong.
local dump = require("lib.dump")
return {
  priority = -1,
  events = {
    ping = function(self, ctx, data, ev)
      print(ctx.frame, "early", ctx.entity:name(), "data", dump(data), "last", dump(ev.last), "mask", ev.mask)
      return { seen = data, by = ctx.entity:name() }
    end,
    pong = function(self, ctx, data, ev)
      print(ctx.frame, "early", ctx.entity:name(), "pong", dump(data))
    end,
  },
}
