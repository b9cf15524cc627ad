-- Proves table.insert in the middle and at #t+1, with numeric string and
-- float positions, shifts elements as Lua 5.1.5 does.
local t = {"a", "b", "c"}
table.insert(t, 2, "x")
print("middle", table.concat(t, ","))
table.insert(t, #t + 1, "end")
print("append at n+1", table.concat(t, ","))
table.insert(t, "3", "s")
print("string position", table.concat(t, ","))
table.insert(t, 2.7, "f")
print("float position", table.concat(t, ","))
print("nil position", pcall(function() table.insert(t, nil, "v") end))
