-- Proves and/or whose operands are comparisons, negations or arithmetic
-- on fields give Lua 5.1's value when assigned to an existing local.
local y = {n = 3}
local x = "old"
x = y.n > 5 and "big"
print("comparison false", x)
x = "old"
x = y.n < 5 and "small"
print("comparison true", x)
x = "old"
x = y.a == nil and y.b
print("eq then field", x)
x = "old"
x = not y.n and 1
print("not truthy", x)
x = "old"
x = y.n + 1 > 10 and 1 or y.a
print("arith compare", x)
x = "old"
x = y.a ~= nil and y.a.b
print("guarded deref", x)
