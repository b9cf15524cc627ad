-- Proves % with zero, infinite and NaN operands gives Lua 5.1's results
-- (a - floor(a/b)*b: nan for x % 0, nan for inf % x, nan for x % inf).
local function m(a, b) return a % b end
local inf = math.huge
print("by zero", m(1, 0), m(-1, 0), m(0, 0))
print("inf dividend", m(inf, 2), m(-inf, 2))
print("inf divisor", m(1, inf), m(-1, inf), m(0, inf))
print("nan", m(0 / 0, 1), m(1, 0 / 0))
print("integers", m(7, 3), m(-7, 3), m(7, -3), m(-7, -3))
print("whole floats", m(6.0, 3), m(2 ^ 53, 2))
