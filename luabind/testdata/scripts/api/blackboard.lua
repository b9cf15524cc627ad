-- ctx.blackboard: plain data, copied in and copied out, shared across Lua
-- states; functions and cycles are refused with an error naming the key.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local bb = ctx.blackboard
    check.eq(bb.missing, nil, "an unset key")
    bb.hp = 7
    check.eq(bb.hp, 7, "a number")
    bb.flag = false
    check.eq(bb.flag, false, "false is a value, not a deletion")
    bb.hp = nil
    check.eq(bb.hp, nil, "nil deletes")

    local t = { list = { 1, 2, 3 }, pos = { x = 1, y = 2 }, who = ctx.entity }
    bb.t = t
    t.list[1] = 100
    check.eq(bb.t.list[1], 1, "values are copied in")
    local got = bb.t
    got.list[2] = 200
    check.eq(bb.t.list[2], 2, "values are copied out")
    check.truthy(not rawequal(bb.t, bb.t), "each read is a new copy")
    check.same(bb.t.pos, { x = 1, y = 2 }, "a nested table")
    check.eq(bb.t.who, ctx.entity, "an entity handle stays an entity")
    check.eq(bb.t.who:name(), "subject", "and it works")

    check.fails("table expected", rawset, bb, "raw", 1)
    check.eq(bb.raw, nil, "rawset cannot bypass the blackboard")

    local err = check.fails('blackboard key "fn"', function() bb.fn = function() end end)
    check.truthy(err:find("function", 1, true), "names the type: " .. err)
    local cyc = {}
    cyc.me = cyc
    err = check.fails('blackboard key "cyc"', function() bb.cyc = cyc end)
    check.truthy(err:find("cycle", 1, true), "names the cycle: " .. err)
    check.eq(bb.cyc, nil, "a refused value is not stored")
    check.fails('blackboard key "deep"', function() bb.deep = { a = { b = { print } } } end)
    check.fails('blackboard key "co"', function() bb.co = coroutine.create(function() end) end)
    check.eq(getmetatable(bb), "blackboard", "the proxy's metatable is protected")
    check.fails("table expected", setmetatable, bb, nil)

    -- another script, in another Lua state, reads and writes
    ctx.spawn({ name = "reader", scripts = { "helper/bbreader" } })
    check.eq(bb.readerSaw, 3, "the other script read the list")
    check.eq(bb.t.list[3], 3, "its change to its copy is not seen")
    check.eq(bb.fromReader.back, ctx.entity, "an entity handle from another state")
    check.eq(bb.fromReader.name, "subject", "names the same entity")
  end,

  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      done()
    end
  end,
}
