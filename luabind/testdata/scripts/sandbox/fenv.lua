-- getfenv/setfenv work on the script's own functions, never on level 0
-- (the thread's environment, outside the script).
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    check.fails("level 0 is not available", getfenv, 0)
    check.fails("level 0 is not available", setfenv, 0, {})
    check.fails("level must be non-negative", getfenv, -1)
    check.eq(getfenv(), _G, "getfenv() is the script's environment")
    check.eq(getfenv(1), _G, "getfenv(1)")
    local function f() return getfenv(2) end
    check.eq(f(), _G, "getfenv(2)")
    local function g() return shared end
    shared = "global"
    setfenv(g, { shared = "private" })
    check.eq(g(), "private", "setfenv on the script's own function")
    check.eq(getfenv(g).shared, "private", "getfenv of a function")
    local co = coroutine.create(function() return getfenv(0) end)
    local ok, err = coroutine.resume(co)
    check.eq(ok, false, "level 0 inside a coroutine")
    check.truthy(tostring(err):find("level 0", 1, true), tostring(err))
    done()
  end,
}
