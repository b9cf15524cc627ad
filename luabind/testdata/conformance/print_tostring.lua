-- Proves print and tostring honour __tostring, and print refuses a
-- __tostring that returns a non-string as Lua 5.1 does ("'tostring' must
-- return a string to 'print'").
local named = setmetatable({}, {__tostring = function() return "named" end})
print("string result", named, tostring(named))
local num = setmetatable({}, {__tostring = function() return 42 end})
print("tostring number", tostring(num))
print("print number", pcall(function() return print(num) end))
local none = setmetatable({}, {__tostring = function() end})
print("tostring nil", tostring(none))
print("print nil", pcall(function() return print(none) end))
local tbl = setmetatable({}, {__tostring = function() return {} end})
print("print table", pcall(function() return print(tbl) end))
print("tostring table type", type(tostring(tbl)))
print("__name-free", tostring(nil), tostring(true), tostring(12))
