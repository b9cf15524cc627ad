-- Proves the base library converts numeric strings where it takes a
-- number: tonumber's base, error's level, getfenv/setfenv levels,
-- math.random's bounds, os.date's time and coroutine-free helpers.
print("tonumber base", tonumber("ff", "16"), tonumber("11", " 2 "), tonumber("z", "36"))
print("error level", pcall(error, "lvl", "0"))
local function lvl2() error("two", "2") end
print("error level 2", pcall(function() lvl2() end))
print("getfenv level", getfenv("1") == _G)
local function f() return x end
setfenv(f, {x = "env"})
print("setfenv function", f())
print("random bounds", math.random("3", "3"), math.random("1"))
print("date time", os.date("!%Y-%m-%d", "86400"))
print("ldexp", math.ldexp("3", "2"))
print("unpack count", select("#", unpack({1, 2, 3}, "1", "2")))
