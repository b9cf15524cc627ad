-- Proves table.concat's ranges with numeric strings, floats and numbers
-- as elements and separators, and its error for a missing element.
local t = {1, 2.5, "x", 1e20, 1 / 3}
print("all", table.concat(t, " "))
print("range", table.concat(t, "|", 2, 4))
print("number sep range", table.concat(t, 0, "1", "2"))
print("single", table.concat(t, ",", 3, 3))
print("missing", pcall(function() return table.concat(t, ",", 4, 6) end))
print("bad element", pcall(function() return table.concat({1, true}, ",") end))
