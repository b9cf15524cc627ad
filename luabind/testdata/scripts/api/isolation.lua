-- Each script runs in its own Lua state: its globals, its string library,
-- math and print are invisible to every other script. As in reference Lua,
-- the string library is the strings' __index, not their metatable: fields
-- named like metamethods in it do nothing to strings.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    leak = "visible?"
    string.len = function() return 42 end
    string.upper = nil
    string.shout = function(s) return s .. "!" end
    string.__call = function(s) return "called " .. s end
    string.__metatable = "mine"
    math.pi = 3
    print = nil
    check.eq(("abc"):len(), 42, "our own change to the string library takes effect")
    check.eq(("abc"):shout(), "abc!", "methods added to strings work here")
    check.fails("attempt to call", function() return ("abc")() end)
    check.eq(getmetatable("").__index, string, "the strings' metatable is {__index = string}")
    getmetatable("").__index = function(s, k) return "own " .. k end
    check.eq(("abc").anything, "own anything", "a change to the strings' metatable takes effect here")

    ctx.spawn({ scripts = { "helper/isolation_peer" } })
    check.same(ctx.blackboard.peer, {
      leak = "nil", len = 3, upper = "ABC", shout = "nil", callable = false, index = "table",
      pi = 3.141592653589793, print = "function", loads = "nil",
    }, "what another script sees")
    check.eq(peerGlobal, nil, "the peer's globals are invisible here")
  end,

  onUpdate = function(self, ctx)
    done()
  end,
}
