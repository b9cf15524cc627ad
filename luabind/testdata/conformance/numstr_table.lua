-- Proves the table library and unpack convert numeric strings for
-- positions and ranges as Lua 5.1 does.
local t = {"a", "b", "c", "d"}
print("concat range", table.concat(t, ",", "2", "3"))
print("concat float range", table.concat(t, ",", 1.9, 3.2))
print("unpack range", unpack(t, "2", "3"))
print("unpack start", unpack(t, "3"))
local u = {"x", "y"}
table.insert(u, "1", "w")
print("insert position", table.concat(u, ","))
print("remove position", table.remove(u, "2"), table.concat(u, ","))
print("remove float position", table.remove({"p", "q", "r"}, 2.9))
print("bad concat range", pcall(function() return table.concat(t, ",", "a") end))
print("bad insert position", pcall(function() return table.insert(u, "b", 1) end))
print("getn", table.getn({1, 2, 3}))
