-- Proves __unm receives the operand twice (a, a) as Lua 5.1 passes it,
-- and that unary minus on numeric strings converts them.
local seen = {}
local mt = {__unm = function(a, b) seen.a, seen.b = a, b return "neg" end}
local v = setmetatable({}, mt)
print("result", -v)
print("second is operand", rawequal(seen.a, v), rawequal(seen.b, v))
print("arg count", select("#", getmetatable(v).__unm(v)))
local cnt = setmetatable({}, {__unm = function(...) return select("#", ...) end})
print("count through operator", -cnt)
print("numeric string", -"2", -" 3 ", -"0x10")
print("non-numeric string", pcall(function() return -"abc" end) == false)
