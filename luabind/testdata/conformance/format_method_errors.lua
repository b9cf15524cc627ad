-- Proves string.format's errors called as a method and from nested Lua
-- functions name 'format' and the argument as Lua 5.1 counts it.
local function fmt(f, ...) return f:format(...) end
print("method bad d", pcall(function() return ("%d"):format("x") end))
print("method missing", pcall(function() return ("%s %s"):format(1) end))
print("nested", pcall(fmt, "%d", {}))
print("invalid option", pcall(function() return ("%k"):format(1) end))
print("percent at end", pcall(function() return ("50%"):format() end))
