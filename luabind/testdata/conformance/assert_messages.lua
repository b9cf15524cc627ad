-- Proves assert's messages: its own default, a given string, a number
-- and a table passed through, and its return values, as in Lua 5.1.
print("default", pcall(function() assert(false) end))
print("nil default", pcall(function() assert(nil) end))
print("message", pcall(function() assert(1 == 2, "math is broken") end))
print("number message", pcall(function() assert(false, 42) end))
print("table message", type(select(2, pcall(function() assert(false, {}) end))))
print("returns all", assert(1, 2, 3))
print("direct", pcall(assert, false, "direct message"))
