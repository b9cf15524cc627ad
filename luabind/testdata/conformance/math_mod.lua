-- Proves math.mod is C's fmod in Lua 5.1 (sign of the dividend), like
-- math.fmod, unlike the % operator.
print("negative dividend", math.mod(-7, 3), math.fmod(-7, 3), -7 % 3)
print("negative divisor", math.mod(7, -3), math.fmod(7, -3), 7 % -3)
print("both", math.mod(-7, -3), math.fmod(-7, -3))
print("float", math.mod(5.5, 2), math.mod(-5.5, 2))
print("tenth", math.mod(5, 0.1) < 0.1, math.fmod(1, 0.1) < 0.1)
print("inf", math.mod(1, math.huge), math.fmod(-1, math.huge))
print("string args", math.mod("7", "3"), math.fmod("-7", 3))
