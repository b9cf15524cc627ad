-- sandbox/bom.lua: a script file that starts with a UTF-8 byte order mark
-- (as some editors save one) loads and runs; its lines count as without it.
local check = require("lib.check")
return {
  onCreate = function(self, ctx)
    check.eq(debug.getinfo(1, "l").currentline, 6, "the line")
    done()
  end,
}
