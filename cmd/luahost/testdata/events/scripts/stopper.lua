-- Stops a ping whose data asks for it.
local dump = require("lib.dump")
return {
  events = {
    ping = function(self, ctx, data, ev)
      print(ctx.frame, "stopper", "last", dump(ev.last))
      if type(data) == "table" and data.stop then
        ev:stop()
        return "stopped"
      end
      return ev.last -- pass the previous value on
    end,
  },
}
