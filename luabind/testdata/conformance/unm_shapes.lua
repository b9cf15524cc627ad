-- Proves unary minus in the shapes scripts write: __unm gets (a, a)
-- whatever the operand is (a local, a field, a call, an upvalue, a
-- vararg, a nested minus), its first result only is kept, numbers and
-- numeric strings negate (a zero keeps its sign), and constant
-- expressions still fold.
local function args(...) return select("#", ...), ... end
local mt = {}
mt.__unm = function(a, b) return rawequal(a, b) and "both" or "one" end
local v = setmetatable({}, mt)
local holder = {v = v}
local function get() return v end
print("local", -v)
print("field", -holder.v)
print("index", -holder["v"])
print("call", -get())
print("method", -(setmetatable({}, {__index = {me = function(self) return v end}})):me())
print("upvalue", (function() return -v end)())
print("vararg", (function(...) return -... end)(v, 1))
print("nested", -(-setmetatable({}, {__unm = function(a, b) return v end})))
print("in arithmetic", pcall(function() return 1 + -v end))
local counter = setmetatable({}, {__unm = function(...) return select("#", ...) end})
print("count", -counter, -counter + 1, tostring(-counter))
local multi = setmetatable({}, {__unm = function() return 1, 2, 3 end})
print("first result only", -multi, args(-multi))
local class = {}
class.__index = class
class.__unm = function(a, b) return setmetatable({x = -a.x, same = rawequal(a, b)}, class) end
local p = setmetatable({x = 3}, class)
local q = -p
print("class", q.x, q.same, getmetatable(q) == class)
local z = 0
local s = "0"
print("zero sign", 1 / -z, 1 / -s, 1 / - -z, -z)
print("strings", -"2", -" 0x10 ", -"1e2", -s)
print("constants", -(2 * 3), - -2, -(2 ^ 2), -2 ^ 2)
for i = 1, 2 do
  print("loop", -i, -(i * 0.5))
end
print("no __unm", pcall(function() return -setmetatable({}, {}) end))
