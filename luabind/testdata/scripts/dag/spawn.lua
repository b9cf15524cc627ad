-- dag/spawn.lua: ctx.spawn props shared at 2^22 places: a bounded copy.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx)
    ctx.spawn({ scripts = { { script = "helper/empty", props = { d = dag(22) } } } })
  end,
}
