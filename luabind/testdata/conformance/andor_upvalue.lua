-- Proves `x = <field> and <expr>` gives the falsy value when x is an
-- upvalue, a global, or a local in a closure.
local y = {}
local up = "old"
local function set() up = y.a and 1 end
set()
print("upvalue", up)
g = "old"
g = y.a and 1
print("global", g)
local function inner()
  local x = "old"
  x = y.a and 1
  return x
end
print("closure local", inner())
local function maker()
  local v = "old"
  return function() v = y.a and 1 return v end
end
print("captured", maker()())
local co = coroutine.wrap(function()
  local w = "old"
  w = y.a and 1
  coroutine.yield(w)
end)
print("coroutine local", co())
