-- dag/blackboard.lua: a blackboard value shared at 2^22 places: a bounded
-- copy.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx) ctx.blackboard.x = dag(22) end,
}
