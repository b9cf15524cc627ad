-- Proves parentheses around and/or operands or the whole right-hand side
-- do not change what an existing local receives.
local y = {}
local x = "old"
x = (y.a and 1)
print("whole", x)
x = "old"
x = ((y.a)) and 1
print("operand", x)
x = "old"
x = (((y.a and 1)))
print("deep", x)
x = "old"
x = (y.a and 1) and 2
print("left group", x)
x = "old"
x = y.a and (1 and 2)
print("right group", x)
x = "old"
x = (y).a and 1
print("object group", x)
