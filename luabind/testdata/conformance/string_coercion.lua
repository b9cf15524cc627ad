-- Proves strings in arithmetic convert as Lua 5.1's strtod reads them:
-- hex, spaces and exponents; "010" is ten and "1e400" infinity, where
-- gopher-lua's own conversion read octal and refused overflow; and that a
-- table's own metamethod still answers when a string is the first operand.
print("hex and spaces", "0x10" + 0, " 5 " * 2, "1e2" - 1)
print("leading zero", "010" + 0)
print("overflow", pcall(function() return "1e400" + 0 end))
print("comparison needs numbers", pcall(function() return "10" < 9 end) == false)
print("concat keeps text", "010" .. "", 10 .. "")
local t = setmetatable({}, { __add = function(a, b) return "table's" end, __unm = function() return "neg" end })
print("string first, table's metamethod", "1" + t, t + "1")
print("unary minus of strings", -"2", -" 0x10 ", (pcall(function() return -"x" end)))
print("bad operand fails", (pcall(function() local s = "abc" return s * 2 end)))
print("mixed", "3" ^ "2", "7" % "3", "1" / "4", 2 - "1", "2" * "0x10")
