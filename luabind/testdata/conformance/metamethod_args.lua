-- Proves binary metamethods receive their operands in order (left,
-- right) whichever side has the metamethod, and comparison metamethods
-- as Lua 5.1 calls them.
local function tag(v) return type(v) == "table" and (v.n or "T") or tostring(v) end
local mt = {}
for _, ev in ipairs({"__add", "__sub", "__mul", "__div", "__pow", "__mod", "__concat"}) do
  mt[ev] = function(a, b) return ev .. "(" .. tag(a) .. "," .. tag(b) .. ")" end
end
local a = setmetatable({n = "a"}, mt)
print("left", a + 1, a - 1, a * 1)
print("right", 1 / a, 2 ^ a, 3 % a)
print("concat", a .. "s", "s" .. a)
local eqmt = {__eq = function(x, y) return x.id == y.id end, __lt = function(x, y) return x.id < y.id end, __le = function(x, y) return x.id <= y.id end}
local p, q = setmetatable({id = 1}, eqmt), setmetatable({id = 1}, eqmt)
print("eq lt le", p == q, p < q, p <= q, p > q, p >= q)
