-- os offers the clock and the calendar only.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    check.eq(type(os.time()), "number", "os.time")
    check.eq(type(os.clock()), "number", "os.clock")
    check.eq(type(os.date("%Y-%m-%d")), "string", "os.date")
    check.eq(type(os.date("*t").year), "number", "os.date('*t')")
    check.eq(os.time({ year = 2024, month = 1, day = 1, hour = 12 }) > 0, true, "os.time(t)")
    check.eq(os.difftime(10, 4), 6, "os.difftime")
    for _, name in ipairs({ "execute", "getenv", "remove", "rename", "exit", "tmpname",
      "setenv", "setlocale" }) do
      check.eq(os[name], nil, "os." .. name)
    end
    check.fails("attempt to call", function() os.execute("echo hacked") end)
    check.fails("attempt to call", function() return os.getenv("HOME") end)
    check.fails("attempt to call", function() os.remove("/tmp/x") end)
    check.fails("attempt to call", function() os.exit(1) end)
    done()
  end,
}
