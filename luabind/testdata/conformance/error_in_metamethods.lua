-- Proves errors raised with levels inside metamethods and iterators
-- point where Lua 5.1 points: level 1 at the metamethod, level 2 at the
-- operation that called it.
local mt = {__index = function(t, k) error("no field " .. k, 2) end}
local obj = setmetatable({}, mt)
print("index level 2", pcall(function() return obj.missing end))
local add = setmetatable({}, {__add = function() error("cannot add") end})
print("add level 1", pcall(function() return add + 1 end))
local function iter() error("iter failed", 2) end
print("iterator level 2", pcall(function() for _ in iter do end end))
