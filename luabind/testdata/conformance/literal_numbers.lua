-- Proves numeric literals read as Lua 5.1 reads them: hex past 2^53 and
-- 2^64, decimals past the double range (inf), leading zeros (decimal,
-- never octal), and exponents.
print("hex 64 bits", 0xffffffffffffffff)
print("hex past 64 bits", 0x1ffffffffffffffff)
print("hex 53 bits", 0x20000000000000, 0x20000000000001)
print("huge decimal", 2e308, -2e308, 1e309)
print("tiny decimal", 1e-400, 4.9e-324 > 0)
print("leading zeros", 00012, 010, 0009, 00.5)
print("exponents", 1e2, 1E+2, 1e-2, 12e0)
print("hex cases", 0XFF, 0xAbC, 0x0)
print("loadstring hex", loadstring("return 0xffffffffffffffff")())
print("loadstring octal-looking", loadstring("return 0012 + 1")())
print("tonumber", tonumber("0xffffffffffffffff"), tonumber("00012"), tonumber("2e308"))
