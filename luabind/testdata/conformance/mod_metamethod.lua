-- Proves % calls __mod on tables (left operand first, then right), with
-- both operands, and errors as Lua 5.1 does without one.
local mt = {__mod = function(a, b) return (type(a) == "table" and "L" or tostring(a)) .. "%" .. (type(b) == "table" and "R" or tostring(b)) end}
local l, r = setmetatable({}, mt), setmetatable({}, mt)
print("table left", l % 3)
print("table right", 3 % r)
print("both", l % r)
local only = setmetatable({}, {__mod = function(a, b) return rawequal(a, b) end})
print("same operand", only % only)
print("no metamethod", pcall(function() return {} % 1 end) == false)
print("nil operand", pcall(function() local n return n % 1 end) == false)
