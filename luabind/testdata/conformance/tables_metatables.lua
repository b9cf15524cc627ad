-- table library and metatables
local t = {5, 2, 8, 1, 9, 3}
table.sort(t) print(table.concat(t, " "))
table.sort(t, function(a, b) return a > b end) print(table.concat(t, " "))
local words = {"banana", "Apple", "cherry", "apple", "Banana"}
table.sort(words) print(table.concat(words, " "))
local recs = {}
for i = 1, 10 do recs[i] = {k = i % 3, i = i} end
table.sort(recs, function(a, b) return a.k < b.k end)
local out = {}
for i, r in ipairs(recs) do out[i] = r.k .. ":" .. r.i end
print(table.concat(out, " "))
t = {1, 2, 3}
table.insert(t, 4) table.insert(t, 1, 0) print(table.concat(t, ","))
print(table.remove(t), table.remove(t, 1), table.concat(t, ","))
print(table.remove({}), #t, table.getn and table.getn(t))
print(pcall(table.insert, t, 1, 2, 3))
print(table.maxn({1, 2, [10] = 3, [2.5] = 1}), table.maxn({}))
local mt = {__index = function(t, k) return k .. "!" end}
local p = setmetatable({}, mt)
print(p.x, p[1], rawget(p, "x"))
local calls = {}
local q = setmetatable({}, {__newindex = function(t, k, v) calls[#calls + 1] = k rawset(t, k, v * 2) end})
q.a = 1 q.a = 5 q.b = 2
print(q.a, q.b, table.concat(calls, ","))
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__le = function(a, b) return a.x <= b.x end
V.__tostring = function(a) return "V(" .. a.x .. ")" end
V.__concat = function(a, b) return tostring(a) .. "|" .. tostring(b) end
V.__call = function(self, y) return self.x + y end
V.__unm = function(a) return setmetatable({x = -a.x}, V) end
V.__len = function(a) return 99 end
local a, b = setmetatable({x = 1}, V), setmetatable({x = 2}, V)
print(tostring(a + b), a == b, a < b, a <= b, a > b, a >= b, a .. b, a .. "s", a(10), tostring(-a), #a)
print(a == setmetatable({x = 1}, V), a ~= setmetatable({x = 1}, V))
local W = {__eq = function() return true end}
print(setmetatable({}, W) == setmetatable({}, W), setmetatable({}, W) == setmetatable({}, {__eq = function() return true end}))
local only_lt = {__lt = function(a, b) return a.v < b.v end}
print(pcall(function() return setmetatable({v = 1}, only_lt) <= setmetatable({v = 2}, only_lt) end))
print(getmetatable("x").__index == string, getmetatable(setmetatable({}, {__metatable = "locked"})))
print(pcall(setmetatable, setmetatable({}, {__metatable = 1}), {}))
print(rawequal(a, a), rawequal(a, setmetatable({x = 1}, V)), rawlen)
local proxy = setmetatable({}, {__index = t})
print(proxy[1], #proxy, next(proxy))
local chain = setmetatable({}, {__index = setmetatable({}, {__index = {deep = "yes"}})})
print(chain.deep)
local cnt = 0
for k, v in pairs({10, 20, 30}) do cnt = cnt + k * v end
print(cnt)
for i, v in ipairs({1, 2, nil, 4}) do print(i, v) end
