-- collectgarbage only answers "count"; every other option does nothing
-- (in gopher-lua it would collect the whole process). The Go test
-- TestCollectGarbageDoesNothing checks that no collection runs.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local kb = collectgarbage("count")
    check.eq(type(kb), "number", "count")
    check.truthy(kb > 0, "count is positive")
    check.eq(collectgarbage("collect"), 0, "collect does nothing")
    check.eq(collectgarbage(), 0, "the default option is collect")
    check.eq(collectgarbage("step"), 0, "step")
    check.eq(collectgarbage("stop"), 0, "stop")
    check.eq(collectgarbage("restart"), 0, "restart")
    done()
  end,
}
