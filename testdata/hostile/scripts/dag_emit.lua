-- Event data whose subtables are shared at 2^22 places:
-- the copy is bounded and ends as this callback's error within its budget,
-- not as an exponential walk.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx)
    ctx.emit("x", dag(22))
  end,
}
