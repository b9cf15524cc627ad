-- Proves numbers outside a C int's range, infinities and NaNs convert as
-- Lua 5.1 converts them on x86-64: a count or a table position to a C int
-- (the low 32 bits of the 64-bit conversion, 0 for inf and NaN), a string
-- position to 64 bits, string.format's %d and %x as (long) and (unsigned
-- long), %c as (int); and %.0d of 0 writes no digits.
local inf, nan = 1/0, 0/0
print("format zero prec", string.format("[%+.0d|% .0d|%#.0o|%.0d|%5.0d|%-5.0d|%#.0x|%.0u|%+5.0i]", 0, 0, 0, 0, 0, 0, 0, 0, 0))
print("format big", string.format("%x|%u|%X|%o", 2^64, inf, -1, nan))
print("format d", string.format("%d|%d|%d|%d|%i", 2^63, -2^63, inf, nan, 3.7))
print("format c", string.format("%c%c%c", 65, 4294967361, 66) == "A", #string.format("%c", 4294967295))
print("insert inf", pcall(table.insert, {1, 2}, inf, "x"))
local t = {1, 2}; table.insert(t, -inf, "y"); print("insert -inf", #t, t[0], t[1], t[2], t[3])
print("insert nan", pcall(table.insert, {1, 2}, nan, "x"))
print("insert -2^40", pcall(table.insert, {1, 2}, -2^40, "x"))
print("unpack nan", pcall(unpack, {1, 2, 3}, nan, 2))
print("char", pcall(string.char, nan), pcall(string.char, 2^32 + 65))
print("select", select(2^32 + 2, "a", "b"))
print("rep", string.rep("x", 2^32 + 2))
print("sub", ("hello"):sub(2^40), ("hello"):sub(-2^40), ("hello"):sub(2, inf), ("hello"):sub(nan))
print("byte", ("hello"):byte(-inf), ("hello"):byte(2^32 + 1))
print("find", ("hello"):find("l", 2^32 + 1), ("hello"):find("l", -inf))
print("concat", pcall(table.concat, {1, 2, 3}, ",", 2^32 + 1, 2^32 + 2))
print("remove", pcall(table.remove, {1, 2, 3}, 2^32 + 1))
print("gsub n", ("aaa"):gsub("a", "b", 2^32 + 1))
print("tonumber base", pcall(tonumber, "10", 2^32 + 16))
print("ldexp", math.ldexp(1, 2^32 + 3))
