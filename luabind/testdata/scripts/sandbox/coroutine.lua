-- The coroutine library works as usual (create, resume, yield, status,
-- running, wrap); wrap passes values and errors through.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local co = coroutine.create(function(a, b)
      local c = coroutine.yield(a + b)
      return c * 2
    end)
    check.eq(coroutine.status(co), "suspended", "status")
    local ok, v = coroutine.resume(co, 1, 2)
    check.eq(ok and v, 3, "yield passes values out")
    ok, v = coroutine.resume(co, 5)
    check.eq(ok and v, 10, "resume passes values in")
    check.eq(coroutine.status(co), "dead", "dead")
    ok, v = coroutine.resume(co)
    check.eq(ok, false, "resume a dead coroutine")

    local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
    check.eq(gen() + gen() + gen(), 6, "wrap")
    local bad = coroutine.wrap(function() error("inside", 0) end)
    check.fails("inside", bad)
    local running = coroutine.wrap(function() return coroutine.running() end)
    check.eq(type(running()), "thread", "running inside a coroutine")
    check.fails("function expected", coroutine.create, 5)
    done()
  end,
}
