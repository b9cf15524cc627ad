-- Proves tonumber's base is converted from a numeric string, and the
-- conversions of strings in bases 2 to 36 as Lua 5.1 does them.
print("bases", tonumber("777", "8"), tonumber("zz", "36"), tonumber("1111", "2.0"))
print("base 16 prefix", tonumber("0x1f", 16), tonumber("1f", "16"))
print("negative in base", tonumber("-ff", 16), tonumber("-101", 2))
print("fraction in base", tonumber("1.5", 16), tonumber("1e1", 16))
print("spaces in base", tonumber(" 77 ", 8), tonumber("7 7", 8))
print("bad base", pcall(function() return tonumber("1", "x") end))
print("base out of range", pcall(function() return tonumber("1", 99) end))
