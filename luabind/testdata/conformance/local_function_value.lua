-- Proves that in "local f = function ... end" the name f inside the body
-- is what f was before the statement (a global, an outer local, an
-- upvalue), while in "local function f" it is the new local: wrapping a
-- global under its own name, shadowing an outer local, assigning to the
-- outer name, and recursion both ways.
g = 10
local g = function() return g end
print("global read", type(g()))

do
  local print = function(...) print("wrapping print under its own name", ...) end
  print("[wrapped]")
end

local h = 1
local h = function() h = 2 end
h()
print("outer local assigned", type(h))

local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
print("local function recursion", fact(6))

fib = function(n) return n end
local fib = function(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("value calls the global", fib(6))

local k = 5
local k = function(k) return k end
print("parameter shadows", k(7))

local e = (function() return e end)
print("parenthesised", e())

local outer = "up"
local function make()
  local outer = function() return outer end
  return outer()
end
print("upvalue of the enclosing function", make())

local t = { n = 0 }
local t = function() t.n = t.n + 1; return t.n end
print("field of the old table", t(), t())

local function defines()
  local d = function() function d() return "global d" end end
  d()
  return type(d), d2
end
print("function statement inside", defines(), type(d), d and d())

local m, n = function() return m end, function() return n end
print("two names", m(), n())

local s = function() local s = "inner"; return s end
print("shadowed inside", s())
