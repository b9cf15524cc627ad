#!/usr/bin/env lua
-- A script's first line that starts with '#' is left out, as lua leaves
-- it out of a file: the rest compiles, its lines numbered as in the file.
local check = require("lib.check")

return {
  onUpdate = function(self, ctx)
    local ok, err = pcall(function() error("here") end)
    check.eq(ok, false, "the error")
    check.eq(err:match(":(%d+): here$"), "8", "the line as in the file")
    check.eq(loadstring("#!/usr/bin/env lua\nreturn 1"), nil, "loadstring keeps it, as Lua 5.1's")
    done()
  end,
}
