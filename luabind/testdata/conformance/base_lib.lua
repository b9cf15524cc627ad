-- Proves the base functions that are not about errors or loading: type,
-- tostring of non-numbers, rawget/rawset/rawequal, next/pairs/ipairs
-- protocols, select, getmetatable with __metatable, _G and _VERSION,
-- collectgarbage("count") as a number, and unpack.
print("type", type(nil), type(true), type(1), type("s"), type({}), type(print), type(coroutine.create(function() end)))
print("coroutine of a Go function", (pcall(coroutine.create, print)))
print("type no arg", (pcall(type)))
print("tostring", tostring(nil), tostring(true), tostring(false), tostring("x"))
print("tostring __tostring", tostring(setmetatable({}, {__tostring = function() return "custom" end})))
print("tostring table prefix", (tostring({}):match("^table: ")) ~= nil, (tostring(print):match("^function")) ~= nil)
local t = {}
rawset(t, "k", "v")
print("rawset rawget", rawget(t, "k"), rawequal(t, t), rawequal(t, {}))
print("rawset returns table", rawset(t, 1, 2) == t)
print("rawget on non-table", (pcall(rawget, 1, 1)))
print("next protocol", next({}, nil), next({10}))
local iter, state, init = ipairs({5, 6})
print("ipairs protocol", type(iter), type(state), init, iter(state, init))
local piter, pstate, pinit = pairs({})
print("pairs protocol", piter == next, type(pstate), pinit)
print("select count", select("#"), select("#", nil), select("#", 1, 2, 3))
print("select negative", select(-1, 1, 2, 3), select(-2, 1, 2, 3))
print("getmetatable __metatable", getmetatable(setmetatable({}, {__metatable = "locked"})))
print("getmetatable none", getmetatable({}))
print("_G", _G._G == _G, _G.print == print)
print("_VERSION", _VERSION)
print("collectgarbage count", type(collectgarbage("count")))
print("unpack none", select("#", unpack({})))
print("unpack nils", unpack({nil, nil, 3}, 1, 3))
print("unpack too many", (pcall(unpack, {}, 1, 1e7)))
print("unpack 5000", select("#", unpack({}, 1, 5000)))
print("unpack string index", unpack({"a", "b"}, "2"))
print("tostring of integers", tostring(1e15), tostring(-7), tostring(2^31))
print("ipairs over proxy", (function()
  local n = 0
  for i, v in ipairs(setmetatable({}, {__index = function(_, i) if i <= 3 then return i end end})) do n = n + 1 end
  return n
end)())
print("pairs order of array part", (function()
  local out = {}
  for k, v in pairs({"a", "b", "c"}) do out[#out + 1] = k .. v end
  return table.concat(out, " ")
end)())
print("xpcall passes no args", xpcall(function(...) return select("#", ...) end, print))
print("select with nil count", (pcall(select, nil)))
print("tostring nan test", tostring(0/0) == tostring(0/0))
print("tostring of -0 variable", (function() local z = 0 return tostring(-z) end)())
print("tonumber keeps integers", tonumber("0010"), tonumber("1" .. "0"))
print("select huge", select("#", select(2, "a")))
print("getmetatable of nil", getmetatable(nil))
print("type of nothing", (pcall(type)))
