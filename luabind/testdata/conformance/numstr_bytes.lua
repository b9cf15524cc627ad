-- Proves string.byte and string.char with numeric strings and floats in
-- every position, and out-of-range codes refused as in Lua 5.1.
print("byte", ("ABC"):byte("2"), ("ABC"):byte(1.9), ("ABC"):byte("-1", "-1"))
print("char", string.char("65", 66.7, " 67 "))
print("char range", pcall(function() return string.char(256) end))
print("char negative", pcall(function() return string.char("-1") end))
print("byte empty", select("#", ("ABC"):byte(4)), select("#", ("ABC"):byte(2, 1)))
