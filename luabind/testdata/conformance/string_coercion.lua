-- Proves strings in arithmetic convert as Lua 5.1's strtod reads them:
-- hex, spaces and exponents; "010" is ten and "1e400" infinity, where
-- gopher-lua's own conversion reads octal and refuses overflow (known
-- differences).
print("hex and spaces", "0x10" + 0, " 5 " * 2, "1e2" - 1)
print("leading zero", "010" + 0)
print("overflow", pcall(function() return "1e400" + 0 end))
print("comparison needs numbers", pcall(function() return "10" < 9 end) == false)
print("concat keeps text", "010" .. "", 10 .. "")
