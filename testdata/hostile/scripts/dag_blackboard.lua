-- A blackboard value shared at 2^22 places: a bounded
-- copy, an error of this callback within its budget.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx)
    ctx.blackboard.x = dag(22)
  end,
}
