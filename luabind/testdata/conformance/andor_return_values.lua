-- Proves and/or over multi-value calls keep one value, and that a local
-- reassigned from such an expression gets Lua 5.1's value.
local function two() return nil, "second" end
local function truthy2() return "first", "second" end
local a = "old"
a = two() and "x"
print("falsy first of two", a)
a = "old"
a = truthy2() and select(2, truthy2())
print("truthy first of two", a)
print("in arguments", select("#", two() and 1), (two() or "fallback"))
local b, c = "old", "old"
b, c = two() or "d", truthy2()
print("multiple", b, c)
