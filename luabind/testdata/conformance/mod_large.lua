-- Proves % on large whole numbers and mixed signs near 2^53, where the
-- floored formula and fmod still agree or differ as in Lua 5.1.
local function m(a, b) return a % b end
print("large", m(2 ^ 53, 3), m(2 ^ 52 + 1, 2), m(1e15 + 7, 10))
print("negative large", m(-(2 ^ 40), 7), m(2 ^ 40, -7))
print("fraction of large", m(2 ^ 52 + 0.5, 1), m(123456789.25, 0.5))
print("frame counters", m(1000000, 60), m(999999, 60))
