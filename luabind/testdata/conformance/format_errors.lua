-- Proves string.format's argument errors use Lua 5.1's words: "got no
-- value" for a missing argument, no position or function name added when
-- called through pcall, and the name 'format' when called from Lua.
print("no arguments", pcall(function() return string.format() end))
print("missing value", pcall(function() return string.format("%d") end))
print("missing second", pcall(function() return string.format("%s %s", "a") end))
print("wrong type", pcall(function() return string.format("%d", "x") end))
print("table for s", pcall(function() return string.format("%s", {}) end))
print("nil for s", pcall(function() return string.format("%s", nil) end))
print("invalid option", pcall(function() return string.format("%y", 1) end))
print("from Lua", pcall(function() return string.format("%d", "x") end))
print("method", pcall(function() return ("%d"):format({}) end))
print("no format from Lua", pcall(function() return string.format() end))
