-- Proves multiple assignments whose right-hand sides are and/or over
-- falsy fields give every target its falsy value.
local y = {f = false}
local a, b, c = "a", "b", "c"
a, b = y.a and 1, y.f and 2
print("two ands", a, b)
a, b, c = "a", "b", "c"
a, b, c = y.a or y.f, y.b and 1, 3
print("mixed", a, b, c)
a, b = "a", "b"
b, a = y.a and a, y.b and b
print("crossed", a, b)
local t = {}
a, t.x = y.a and 1, y.f and 2
print("local and field", a, t.x)
