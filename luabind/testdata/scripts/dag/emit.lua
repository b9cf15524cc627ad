-- dag/emit.lua: event data shared at 2^22 places: the
-- copy ends as this callback's error, quickly, not as an exponential walk.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx) ctx.emit("x", dag(22)) end,
}
