-- Functions registered from Go (the runner's echo and fail): arguments
-- and results are plain data, a Go error is a Lua error.
local check = require("lib.check")

return {
  onUpdate = function(self, ctx)
    if ctx.frame ~= 1 then return end
    local r = echo(1, "two", true, { x = { 1, 2 } }, ctx.entity)
    check.same(r, { 1, "two", true, { x = { 1, 2 } }, ctx.entity }, "echo")
    check.eq(r[5], ctx.entity, "an entity argument comes back as an entity")
    check.eq(#echo(), 0, "no arguments")
    local ok, err = pcall(function() fail("out of gold") end)
    check.eq(ok, false, "a Go error")
    check.eq(err, "testdata/scripts/api/register.lua:12: fail: out of gold", "is a Lua error at the caller's line")
    check.fails("cannot store a function", echo, print)
    check.eq(type(echo), "function", "a global function")
    done()
  end,
}
