-- Proves a hex numeral with a binary exponent reads as the C library's
-- strtod reads it in Lua 5.1 (0x10p1 is 32), in source code, tonumber and
-- string arithmetic, and that a hex numeral whose exponent has a sign
-- stops before the sign, as Lua 5.1's lexer reads it.
print("tonumber", tonumber("0x1P4"), tonumber("0x10p1"), tonumber("0x1p-1"))
print("source", 0x10p1, 0x1P4, 0xAp0 + 1)
print("loadstring", loadstring("return 0x10p1")())
print("in a string untouched", "0x10p1", [[0x1p4]])
print("malformed", select(2, loadstring("return 0xAp-1")))
