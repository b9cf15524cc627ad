-- collectgarbage only answers "count"; every other option does nothing
-- (in gopher-lua it would collect the whole process) and returns what
-- Lua 5.1's returns: "step" that a cycle finished, as nothing is left to
-- collect. The Go test TestCollectGarbageDoesNothing checks that no
-- collection runs.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local kb = collectgarbage("count")
    check.eq(type(kb), "number", "count")
    check.truthy(kb > 0, "count is positive")
    check.eq(collectgarbage("collect"), 0, "collect does nothing")
    check.eq(collectgarbage(), 0, "the default option is collect")
    check.eq(collectgarbage("step"), true, "step")
    check.eq(collectgarbage("stop"), 0, "stop")
    check.eq(collectgarbage("restart"), 0, "restart")
    done()
  end,
}
