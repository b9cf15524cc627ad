-- Proves tostring and string conversion of values with __tostring: the
-- result passed through, numbers and other returns from tostring, and
-- .. not consulting __tostring.
local v = setmetatable({}, {__tostring = function() return "V" end})
print("tostring", tostring(v), type(tostring(v)))
local n = setmetatable({}, {__tostring = function() return 12 end})
print("number result", tostring(n), type(tostring(n)))
print("concat refuses", pcall(function() return "x" .. v end) == false)
print("format s refuses", pcall(function() return string.format("%s", v) end) == false)
local b = setmetatable({}, {__tostring = function() return true end})
print("boolean result", tostring(b))
print("print boolean", pcall(function() print(b) end))
