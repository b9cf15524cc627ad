-- Proves table.concat takes a number as separator (converted to a string
-- as Lua 5.1 does) and refuses other separators with 5.1's message.
print("integer separator", table.concat({1, 2, 3}, 1))
print("float separator", table.concat({"a", "b"}, 0.5))
print("zero separator", table.concat({"a", "b", "c"}, 0))
print("big separator", table.concat({"a", "b"}, 1e20))
print("string separator", table.concat({"a", "b"}, "--"))
print("empty", table.concat({}, 1), table.concat({"only"}, 9))
print("table separator", pcall(function() return table.concat({"a", "b"}, {}) end))
print("boolean separator", pcall(function() return table.concat({"a", "b"}, true) end))
print("nil separator", table.concat({"a", "b"}, nil))
