-- Proves unary minus on numbers, numeric strings and through __unm on
-- tables and strings with a metatable, as in Lua 5.1.
local function neg(x) return -x end
print("numbers", neg(3), neg(-2.5), neg(1e308))
print("strings", neg("4"), neg("-4"), neg("1e2"), neg(" 0x1 "))
local vec = {}
vec.__unm = function(a) return setmetatable({x = -a.x}, vec) end
local v = setmetatable({x = 2}, vec)
print("vector", (-v).x, (- -v).x)
print("bad", pcall(function() return -{} end) == false)
