-- dag/send.lua: e:send data shared at 2^22 places: a bounded copy.
local dag = require("lib.dag")
return {
  onUpdate = function(self, ctx) ctx.entity:send("x", dag(22)) end,
}
