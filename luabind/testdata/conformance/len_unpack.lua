-- Proves unpack and select('#') over tables with far keys and holes at
-- the end use the border Lua 5.1 finds.
local t = {"a", "b", "c"}
t[5000] = "far"
print("unpack", unpack(t))
print("count", select("#", unpack(t)))
local u = {1, 2, 3, nil}
print("trailing nil", #u, select("#", unpack(u)))
local v = {n = 3, 1, 2, 3}
print("with n field", #v, unpack(v))
