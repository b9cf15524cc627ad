-- An event handler whose result is shared at 2^22 places: copying the
-- result is bounded, by nodes and by the budget left to the emitter, and
-- a result that cannot be copied is the handler's error, never the
-- emitter's.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx)
    ctx.emit("ask", 1)
  end,
  events = {
    ask = function(self, ctx, data)
      return dag(22)
    end,
  },
}
