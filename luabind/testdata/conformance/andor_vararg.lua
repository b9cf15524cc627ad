-- Proves `x = ... and <expr>` and `x = select(...) and <expr>` give the
-- falsy first vararg to an existing local.
local function f(...)
  local x = "old"
  x = ... and 1
  return x
end
print("nil vararg", f(nil))
print("false vararg", f(false))
print("no vararg", f())
print("truthy vararg", f(0))
local function g(...)
  local x = "old"
  x = (select(2, ...)) and "two"
  return x
end
print("select", g(1), g(1, 2))
local function h(a, ...)
  a = ... and a
  return a
end
print("parameter target", h("p"), h("p", 1))
