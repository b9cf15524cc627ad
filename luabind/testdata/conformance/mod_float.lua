-- Proves float % is a - floor(a/b)*b, as Lua 5.1 computes it, for
-- operands whose fmod and floored formulas differ (5 % 0.1 is 0).
local function m(a, b) return a % b end
print("five tenth", m(5, 0.1))
print("one tenth", m(1, 0.1))
print("three fifth", m(3, 0.2))
print("fractional", m(5.5, 2), m(-5.5, 2), m(5.5, -2), m(-5.5, -2))
print("small divisor", m(1, 0.3), m(2, 0.7), m(10, 0.01))
print("negative", m(-1, 0.1), m(-5, 0.3), m(1, -0.1))
print("big", m(1e15, 0.1), m(123456.789, 1))
print("literal", 5 % 0.1, 1 % 0.1, 3 % 0.2)
print("variable and literal", m(7.25, 0.5), 7.25 % 0.5)
local x = 0.3
print("in expression", x % 0.1 == x - math.floor(x / 0.1) * 0.1)
