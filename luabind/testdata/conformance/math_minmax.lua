-- Proves math.max and math.min with one argument, many, numeric strings,
-- infinities, and their error without arguments, as in Lua 5.1.
print("one", math.max(5), math.min(5))
print("many", math.max(3, 9, -2, 7), math.min(3, 9, -2, 7))
print("strings", math.max("4", 3), math.min("-4", 3))
print("inf", math.max(-math.huge, 1), math.min(math.huge, 1))
print("none", pcall(function() return math.max() end))
print("bad", pcall(function() return math.min(1, {}) end))
