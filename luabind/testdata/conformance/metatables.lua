-- Proves metatables: __index (table and function), __newindex,
-- arithmetic and comparison metamethods, __concat, __call, __tostring,
-- __eq only between same types, __lt/__le, __unm, __metatable
-- protection, rawget/rawset/rawequal bypassing them.
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end
V.__sub = function(a, b) return setmetatable({x = a.x - b.x}, V) end
V.__mul = function(a, b)
  if type(a) == "number" then return setmetatable({x = a * b.x}, V) end
  if type(b) == "number" then return setmetatable({x = a.x * b}, V) end
  return a.x * b.x
end
V.__div = function(a, b) return setmetatable({x = a.x / b}, V) end
V.__mod = function(a, b) return setmetatable({x = a.x % b}, V) end
V.__pow = function(a, b) return setmetatable({x = a.x ^ b}, V) end
V.__unm = function(a) return setmetatable({x = -a.x}, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__le = function(a, b) return a.x <= b.x end
V.__concat = function(a, b)
  local l = type(a) == "table" and "V" .. a.x or a
  local r = type(b) == "table" and "V" .. b.x or b
  return l .. "&" .. r
end
V.__tostring = function(a) return "V(" .. a.x .. ")" end
V.__call = function(self, y) return self.x + y end
function V.new(x) return setmetatable({x = x}, V) end
function V:double() return V.new(self.x * 2) end
local a, b = V.new(2), V.new(5)
print("add", tostring(a + b))
print("sub", tostring(b - a))
print("mul number left", tostring(3 * a))
print("mul number right", tostring(a * 3))
print("mul both", a * b)
print("div", tostring(b / 5))
print("mod", tostring(b % 3))
print("pow", tostring(a ^ 3))
print("unm", tostring(-a))
print("eq", a == V.new(2), a == b, a ~= b)
print("eq different types", a == 2)
print("lt", a < b, b < a)
print("le", a <= b, b <= a, a <= V.new(2))
print("gt via lt", b > a, a > b)
print("concat left", a .. "s")
print("concat right", "s" .. b)
print("concat both", a .. b)
print("call", a(10))
print("method", tostring(a:double()))
print("tostring", tostring(a))
print("index function", setmetatable({}, {__index = function(t, k) return k .. "!" end}).hi)
local base = {greet = "hello"}
local mid = setmetatable({}, {__index = base})
local top = setmetatable({}, {__index = mid})
print("index chain", top.greet)
local log = {}
local proxy = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v * 2) end})
proxy.a = 1
proxy.a = 5
print("newindex once", proxy.a, #log)
local store = {}
local redirect = setmetatable({}, {__newindex = store})
redirect.k = "v"
print("newindex table", rawget(redirect, "k"), store.k)
local prot = setmetatable({}, {__metatable = "locked"})
print("metatable protected", getmetatable(prot))
print("setmetatable protected", (pcall(setmetatable, prot, {})))
print("rawget bypasses", rawget(top, "greet"))
print("rawequal", rawequal(a, V.new(2)), rawequal(a, a))
local eq1 = setmetatable({}, {__eq = function() return true end})
local eq2 = setmetatable({}, {__eq = function() return false end})
print("eq needs same metamethod", eq1 == eq2, eq1 == {})
local cnt = setmetatable({}, {__index = function(t, k) local v = k * k; rawset(t, k, v); return v end})
print("memoising index", cnt[4], rawget(cnt, 4), rawget(cnt, 5))
print("getmetatable of string", type(getmetatable("")))
print("getmetatable of number", getmetatable(1))
print("setmetatable returns table", setmetatable(prot == nil and {} or {}, nil) ~= nil)
print("setmetatable nil on number", (pcall(setmetatable, 1, {})))
local len = setmetatable({1, 2, 3}, {__len = function() return 99 end})
print("len ignores __len on tables", #len)
local called = {}
local lt2 = setmetatable({}, {__lt = function(x, y) called[#called + 1] = "lt"; return true end})
print("le falls back to not lt", pcall(function() return lt2 <= lt2 end))
local idx = setmetatable({}, {__index = function(t, k) return nil end})
print("index returning nil", idx.anything)
local mt = {__index = function(t, k) return "dyn" end}
local inst = setmetatable({real = "r"}, mt)
print("index only for absent", inst.real, inst.other)
