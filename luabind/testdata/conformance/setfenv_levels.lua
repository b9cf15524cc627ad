-- Proves getfenv and setfenv at levels 1 and 2, on Lua functions, and
-- the environment a loadstring chunk runs in, as Lua 5.1 does.
local env = {print = print, tostring = tostring}
local function inner() return getfenv(2) end
local function outer() return inner() end
print("level 2 is caller", outer() == _G)
local chunk = loadstring("y = 5 return y")
setfenv(chunk, env)
print("chunk env", chunk(), env.y, rawget(_G, "y"))
local function setter() setfenv(1, env) z = 3 end
setter()
print("level 1 set", env.z, rawget(_G, "z"))
print("getfenv of chunk", getfenv(chunk) == env)
print("setfenv through Lua", pcall(function() return setfenv(print, {}) end))
