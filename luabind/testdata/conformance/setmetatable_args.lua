-- Proves setmetatable requires its second argument (nil or table) as Lua
-- 5.1 does, refuses non-tables, and honours __metatable.
print("one argument", pcall(function() return setmetatable({}) end))
print("explicit nil", (pcall(function() return setmetatable({}, nil) end)))
print("number metatable", pcall(function() return setmetatable({}, 1) end))
print("string target", pcall(function() return setmetatable("s", {}) end))
print("no arguments", pcall(function() return setmetatable() end))
local locked = setmetatable({}, {__metatable = "locked"})
print("protected", pcall(function() return setmetatable(locked, {}) end))
print("getmetatable protected", getmetatable(locked))
local t = {}
print("returns table", setmetatable(t, {}) == t)
print("removed", getmetatable(setmetatable(t, nil)))
