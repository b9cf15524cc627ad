-- dag/self.lua: a self holding data shared at 2^22 places. Lua itself is
-- fine with it; a reload, which copies self, is refused quickly.
local dag = require("lib.dag")
return {
  onCreate = function(self, ctx) self.d = dag(22) end,
}
