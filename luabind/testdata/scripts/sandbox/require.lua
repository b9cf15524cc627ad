-- require("lib.counter") loads lib/counter.lua from the script directory,
-- once per state; names with "..", slashes or absolute paths are refused.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    for _, bad in ipairs({ "../x", "/etc/passwd", "lib/check", "lib..check", ".lib", "lib.", "",
      "..", "lib.check.lua/..", "C:\\x", "lib\0x" }) do
      check.fails("invalid module name", require, bad)
    end
    check.fails("string expected", require)
    local err = check.fails('module "lib.missing" not found', require, "lib.missing")
    check.truthy(err:find("testdata/scripts/lib/missing.lua", 1, true), "names the file it looked for: " .. err)
    err = check.fails("lib/broken.lua:3:", require, "lib.broken")
    check.truthy(err:find("attempt to index", 1, true), "a failing module's error: " .. err)
    err = check.fails("lib/broken.lua:3:", require, "lib.broken")
    check.truthy(not err:find("loop", 1, true), "a failed module is tried again, not reported as a loop: " .. err)

    local c1 = require("lib.counter")
    local c2 = require("lib.counter")
    check.truthy(rawequal(c1, c2), "a module is loaded once per state")
    check.eq(c1.loads, 1, "its code ran once")
    check.eq(counter_loads, 1, "in this state")
    check.eq(c1.name, "lib.counter", "it gets its name as ...")
    c1.mark = "changed here"

    ctx.spawn({ scripts = { "helper/requirer" } })
    check.same(ctx.blackboard.other, { loads = 1, mark = "nil" }, "another state loads its own copy")
    done()
  end,
}
