-- Proves string.format's flags, widths and precisions follow C's printf
-- as Lua 5.1 passes them, and refuses widths over two digits.
print("flags", string.format("[%+d] [% d] [%-5d] [%05d]", 3, 3, 3, 3))
print("precision s", string.format("[%.3s] [%10.2s] [%-6s]", "abcdef", "abc", "ab"))
print("floats", string.format("%.0f %.10f %+.2f", 2.5, 1 / 3, 2))
print("percent", string.format("100%% %d%%", 5))
print("hash", string.format("%#o %#x %#.3g", 8, 255, 1))
print("too long width", pcall(function() return string.format("%100d", 1) end))
print("too long precision", pcall(function() return string.format("%.100f", 1) end))
print("max width", #string.format("%99d", 1))
