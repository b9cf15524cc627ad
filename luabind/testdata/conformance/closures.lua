-- Proves closures capture variables (not values), share upvalues between
-- sibling closures, get a fresh local per loop iteration, and keep
-- upvalues right after a caught error (gopher-lua issue 448).
local function counter()
  local n = 0
  return function() n = n + 1 return n end, function() return n end
end
local inc, get = counter()
inc() inc()
print("shared upvalue", get())

local inc2 = counter()
print("separate instances", inc2(), get())

local fns = {}
for i = 1, 3 do fns[i] = function() return i end end
print("fresh loop variable", fns[1](), fns[2](), fns[3]())

local wfns = {}
local w = 1
while w <= 3 do
  local v = w * 10
  wfns[w] = function() return v end
  w = w + 1
end
print("fresh local per iteration", wfns[1](), wfns[2](), wfns[3]())

local x = 1
local function setx(v) x = v end
setx(5)
print("upvalue write visible", x)

local function outer()
  local a = 1
  local function mid()
    local function inner() a = a + 1 return a end
    return inner
  end
  return mid(), function() return a end
end
local bump, peek = outer()
bump() bump()
print("nested upvalue", peek())

local c
local function f()
  pcall(error, "e")
  c = 1
end
f()
print("upvalue after caught error", c)

local d = 0
local function g()
  local ok = pcall(function() error("x") end)
  d = d + 1
  return ok
end
print("local after caught error", g(), d)

local function after()
  local v = 1
  pcall(error, "boom")
  v = v + 1
  return v
end
print("local written after pcall", after())

local function rec(n)
  if n == 0 then return 0 end
  return n + rec(n - 1)
end
print("local recursive function", rec(10))

local fact
fact = function(n) if n <= 1 then return 1 end return n * fact(n - 1) end
print("recursion through upvalue", fact(10))

local t = {}
for i = 1, 3 do
  local j = i
  t[i] = function() j = j + 100 return j end
end
print("per iteration upvalues", t[1](), t[1](), t[2]())
