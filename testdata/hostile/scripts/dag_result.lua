-- An event handler whose result is shared at 2^22 places (SPEC 13
-- "Copies"): copying the result is bounded and runs on the emitter's
-- clock, so the emitter is stopped at its emit line within its budget.
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
