-- Proves a hex numeral with a binary exponent reads as the C library's
-- strtod reads it in Lua 5.1 (0x10p1 is 32) in tonumber and string
-- arithmetic; in source code luahost refuses it (a known difference).
print("tonumber", tonumber("0x1P4"), tonumber("0x10p1"), tonumber("0x1p-1"))
print("source", select("#", loadstring("return 0x10p1")))
print("malformed", select(2, loadstring("return 0xAp-1")))
