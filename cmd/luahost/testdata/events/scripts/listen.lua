-- A ping listener of priority 0; returns a value for the next observer.
local dump = require("lib.dump")
return {
  events = {
    ping = function(self, ctx, data, ev)
      print(ctx.frame, "listen", ctx.entity:name(), "data", dump(data), "last", dump(ev.last), "mask", ev.mask)
      if data == "nest" and ctx.entity:name() == "a" then
        print(ctx.frame, "listen a emits pong:", ctx.emit("pong", { depth = 1 }))
      end
      return "from " .. ctx.entity:name()
    end,
  },
}
