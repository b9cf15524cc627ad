-- Multiple assignment evaluates every right-hand side before assigning
-- anything, and assigns right to left, as Lua 5.1 does (gopher-lua's own
-- compiler gives 2 2 for the swap).
local a, b = 1, 2
a, b = b, a
print("swap", a, b)
local x, y, z = 1, 2, 3
x, y, z = z, x, y
print("rotate", x, y, z)
g1, g2 = 10, 20
g1, g2 = g2, g1
print("globals", g1, g2)
local t = { 1, 2, 3 }
local i, j = 1, 3
t[i], t[j] = t[j], t[i]
print("fields", t[1], t[2], t[3])
local function two() return "p", "q", "r" end
local p, q, r
p, q, r = two()
print("call", p, q, r)
p, q, r = 0, two()
print("call last", p, q, r)
p, q, r = two(), 9
print("call first", p, q, r)
p, q = (two())
print("parenthesized", p, q)
p, q = 1, 2, print("extra evaluated")
print("extra", p, q)
a, a = 1, 2
print("same target", a)
local n = 1
local arr = {}
n, arr[n] = n + 1, 20
print("key before", n, arr[1], arr[2])
arr = {}
arr[n], n = 30, n + 1
print("key after", n, arr[2], arr[3])
local u = { v = 1 }
local function getu() return u end
u.v, u = 5, { v = 0 }
print("table then name", u.v)
local log = {}
local mt = setmetatable({}, { __newindex = function(_, k, v) log[#log + 1] = k .. "=" .. v end })
mt.x, mt.y, mt.z = 1, 2, 3
print("order", table.concat(log, " "))
local up1, up2 = "a", "b"
local function swapup() up1, up2 = up2, up1 end
swapup()
print("upvalues", up1, up2)
local function range(n)
  local out, prev, cur = {}, 0, 1
  for k = 1, n do
    out[k] = cur
    prev, cur = cur, prev + cur
  end
  return table.concat(out, ",")
end
print("fib", range(10))
local function varargs(...)
  local a, b, c
  a, b, c = ...
  return a, b, c
end
print("varargs", varargs(7, 8))
