-- everyday idioms: classes with inheritance, closures over loop
-- variables, varargs, memoized recursion, string building, queues
local Base = {}
Base.__index = Base
function Base.new(name) return setmetatable({name = name, hp = 10}, Base) end
function Base:hit(n) self.hp = self.hp - (n or 1) return self end
function Base:describe() return self.name .. ":" .. self.hp end
local Orc = setmetatable({}, {__index = Base})
Orc.__index = Orc
function Orc.new(name) local o = Base.new(name) o.rage = 0 return setmetatable(o, Orc) end
function Orc:hit(n) self.rage = self.rage + 1 return Base.hit(self, (n or 1) * 2) end
function Orc:describe() return Base.describe(self) .. " rage " .. self.rage end
local o = Orc.new("grok"):hit():hit(3)
print(o:describe(), getmetatable(o) == Orc, rawget(o, "hit"), o.hit == Orc.hit)
local counters = {}
for i = 1, 3 do
  local n = 0
  counters[i] = function() n = n + i return n end
end
print(counters[1](), counters[1](), counters[2](), counters[3](), counters[3]())
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s, select("#", ...)
end
print(sum(), sum(1, nil, 3), sum(unpack({1, 2, 3, 4})))
local function pack(...) return {n = select("#", ...), ...} end
local p = pack(nil, 2, nil)
print(p.n, p[1], p[2], p[3], #p == 0 or #p == 2 or #p == 3)
local memo = {}
local function fib(n)
  if n < 2 then return n end
  local v = memo[n]
  if v then return v end
  v = fib(n - 1) + fib(n - 2)
  memo[n] = v
  return v
end
print(fib(80), fib(30), 2^53 + 1 == 2^53)
local parts = {}
for i = 1, 10 do parts[#parts + 1] = i % 3 == 0 and "fizz" or tostring(i) end
print(table.concat(parts, " "))
local queue = {first = 1, last = 0}
local function push(q, v) q.last = q.last + 1 q[q.last] = v end
local function pop(q) local v = q[q.first] q[q.first] = nil q.first = q.first + 1 return v end
for i = 1, 5 do push(queue, i * i) end
print(pop(queue), pop(queue), queue.first, queue.last)
local t = setmetatable({}, {__index = function(t, k) local v = k * 2 rawset(t, k, v) return v end})
print(t[21], rawget(t, 21), rawget(t, 22))
local s = 0
for _, v in ipairs({5, 4, 3}) do s = s * 10 + v end
print(s)
local keys = {}
for k in pairs({b = 1, a = 2, c = 3}) do keys[#keys + 1] = k end
table.sort(keys)
print(table.concat(keys))
local function curry(f, a) return function(...) return f(a, ...) end end
print(curry(math.max, 7)(3, 9, 1), curry(string.rep, "ab")(2))
print(select(2, pcall(error)), select(2, pcall(error, nil)), select(2, pcall(error, 42)))
local str = "a,b;c d"
local words = {}
for w in str:gmatch("[^,; ]+") do words[#words + 1] = w end
print(#words, table.concat(words, "/"))
print(("%5.1f%%"):format(99.44), tostring(1e21), 1e21 == 10^21, math.floor(1e21) == 1e21)
print(type(_G), _G._G == _G, _VERSION)
