-- math.random is seeded from the runtime's seed (TestRandomSeed checks
-- reproducibility); its ranges follow Lua's.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    for _ = 1, 200 do
      local r = math.random()
      check.truthy(r >= 0 and r < 1, "math.random() in [0, 1): " .. r)
      local d = math.random(6)
      check.truthy(d >= 1 and d <= 6 and d % 1 == 0, "math.random(6): " .. d)
      local s = math.random(-2, 2)
      check.truthy(s >= -2 and s <= 2 and s % 1 == 0, "math.random(-2, 2): " .. s)
    end
    check.fails("interval is empty", math.random, 0)
    check.fails("interval is empty", math.random, 3, 2)
    -- Intervals wider than int64 holds are drawn too (their width
    -- overflowed, and the draw panicked in Go); bounds past it are
    -- refused (2^63 read as an empty interval).
    for _ = 1, 50 do
      local w = math.random(-2^62, 2^62)
      check.truthy(w >= -2^62 and w <= 2^62 and w % 1 == 0, "math.random(-2^62, 2^62): " .. w)
      local f = math.random(-2^63, 2^63 - 1024)
      check.truthy(f >= -2^63 and f <= 2^63 - 1024, "math.random(-2^63, 2^63 - 1024): " .. f)
    end
    check.fails("number has no integer representation", math.random, 2^63)
    check.fails("number has no integer representation", math.random, 1, 1e300)
    check.fails("number has no integer representation", math.random, 0/0)
    math.randomseed(7)
    local a = { math.random(1000), math.random(1000), math.random(1000) }
    math.randomseed(7)
    local b = { math.random(1000), math.random(1000), math.random(1000) }
    check.same(a, b, "math.randomseed restarts the sequence")
    done()
  end,
}
