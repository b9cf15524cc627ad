-- Proves ^, math.pow and math.sqrt results on whole, fractional and
-- negative operands, as Lua 5.1 prints them.
print("pow", 2 ^ 0.5, math.pow(2, -1), 10 ^ 15, 10 ^ -3)
print("negative base", (-2) ^ 2, (-2) ^ 3, (-8) ^ (1 / 3) ~= (-8) ^ (1 / 3))
print("sqrt", math.sqrt(2), math.sqrt(0), math.sqrt(1e-10))
print("zero powers", 0 ^ 0, 0 ^ 1, 2 ^ 0)
print("string operands", "2" ^ "3", math.pow("9", "0.5"))
