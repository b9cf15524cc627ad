-- Proves string.sub and string.byte take numeric strings for positions,
-- as functions and as methods, with negative and out-of-range values.
local s = "hello"
print("sub strings", s:sub("2", "3"), s:sub("-2"), s:sub("2"))
print("sub function", string.sub(s, "1", "-2"), string.sub(s, " 4 "))
print("sub floats", s:sub(2.9, 3.1), s:sub("2.5", "4.5"))
print("sub range", s:sub(0), s:sub(10), s:sub(-100, 2), s:sub(3, 2))
print("byte strings", s:byte("1"), s:byte("-1"), s:byte("2", "3"))
print("byte function", string.byte(s, "5"), string.byte(s, "6"))
print("bad position", pcall(function() return string.sub(s, "x") end))
print("bad byte", pcall(function() return string.byte(s, {}) end))
