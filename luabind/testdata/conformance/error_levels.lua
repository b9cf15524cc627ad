-- Proves error(msg, level) adds the position of the function at that
-- level, also through pcall: level 2 names the caller's line, level 1
-- the erroring function, level 0 none, and a level past the stack none.
local function blame2() error("level two", 2) end
local function blame1() error("level one", 1) end
local function blame3() error("level three", 3) end
print("level 2 direct", pcall(blame2))
print("level 2 from Lua", pcall(function() blame2() end))
print("level 1", pcall(blame1))
print("level 0", pcall(error, "zero", 0))
print("level 3", pcall(function() blame3() end))
local function nest() blame3() end
print("level 3 nested", pcall(function() nest() end))
print("level 2 from pcall", pcall(error, "via pcall", 2))
print("level 1 from pcall", pcall(error, "msg", 1))
print("far level", pcall(function() error("far", 50) end))
print("non-string", pcall(error, 42, 2))
