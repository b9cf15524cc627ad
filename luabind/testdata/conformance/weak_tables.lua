-- Proves what a table with __mode does in luahost: it works as a table
-- (stores, lookups, iteration, its metatable keeps __mode), and its
-- entries are never collected, where Lua 5.1 drops a weak entry whose
-- key or value nothing else holds once collectgarbage("collect") runs
-- (a known difference: gopher-lua has no weak references).
local cache = setmetatable({}, {__mode = "k"})
local key = {}
cache[key] = "kept"
cache.name = "strong string key"
collectgarbage("collect")
print("held key survives", cache[key], cache.name)
print("mode visible", getmetatable(cache).__mode)
local values = setmetatable({}, {__mode = "v"})
values[1] = "a string is never collected"
collectgarbage("collect")
print("string value survives", values[1])
local weak = setmetatable({}, {__mode = "k"})
weak[{}] = true
collectgarbage("collect")
print("unreferenced key collected", next(weak) == nil)
