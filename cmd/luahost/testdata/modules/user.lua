-- A script whose module returns a function, not a table.
local greet = require("lib.greet")
return {
  onCreate = function(self, ctx) print(greet("module")) end,
}
