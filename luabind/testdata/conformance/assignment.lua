-- Proves multiple assignment evaluates every right-hand side before it
-- assigns anything, adjusts value counts, and assigns table fields and
-- locals in a way a Lua 5.1 program can rely on.
local a, b = 1, 2
a, b = b, a
print("swap locals", a, b)

local x, y, z = 1, 2, 3
x, y, z = z, x, y
print("rotate locals", x, y, z)

local t = {1, 2}
t[1], t[2] = t[2], t[1]
print("swap fields", t[1], t[2])

local i = 1
local arr = {10, 20, 30}
i, arr[i] = i + 1, 99
print("index before assign", i, arr[1], arr[2])

local p, q, r = 1
print("missing values are nil", p, q, r)

local u, v = 1, 2, 3
print("extra values dropped", u, v)

local function three() return 1, 2, 3 end
local m1, m2, m3, m4 = three()
print("call expands last", m1, m2, m3, m4)
local n1, n2, n3 = three(), 10
print("call truncated when not last", n1, n2, n3)
local o1, o2 = (three())
print("parenthesised call gives one", o1, o2)

g1, g2 = 5, 6
g1, g2 = g2, g1
print("swap globals", g1, g2)

local s = {n = 0}
local function bump() s.n = s.n + 1 return s.n end
local c1, c2, c3 = bump(), bump(), bump()
print("calls left to right", c1, c2, c3)

local k = {}
k.a, k.b, k.c = "x", "y"
print("field missing value", k.a, k.b, k.c)

local a1, a2 = 1, 2
a1, a2 = a2
print("shorter right side", a1, a2)

do
  local f = 1
  local f = f + 1
  print("shadowed local sees outer", f)
end

local j = 0
local function nxt() j = j + 1 return j end
local tt = {}
tt[nxt()], tt[nxt()] = nxt(), nxt()
local keys = {}
for key in pairs(tt) do keys[#keys + 1] = key end
table.sort(keys)
print("keys assigned", #keys)
