-- Proves getmetatable returns __metatable when set, the string
-- metatable's __index, and nil for values without one.
local p = setmetatable({}, {__metatable = false})
print("false metatable", getmetatable(p))
local q = setmetatable({}, {__metatable = {fake = true}})
print("table metatable", getmetatable(q).fake)
print("string", getmetatable("").__index == string)
print("number nil", getmetatable(1), getmetatable(nil), getmetatable(print))
print("protected change", pcall(function() return setmetatable(q, nil) end))
