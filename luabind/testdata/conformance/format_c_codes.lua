-- Proves string.format's %c over the byte range, with widths, as Lua 5.1
-- writes them (C's sprintf cut at a NUL).
local codes = {}
for _, c in ipairs({65, 97, 48, 32, 126, 200, 255, 1}) do codes[#codes + 1] = string.format("%c", c):byte() end
print("codes", table.concat(codes, ","))
print("width", string.format("[%3c]", 65), string.format("[%-3c]", 65))
print("zero width", #string.format("%3c", 0), #string.format("%-3c", 0))
print("many", string.format("%c%c%c", 76, 117, 97))
