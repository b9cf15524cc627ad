-- Proves error levels blame the right caller through chains of Lua
-- functions, methods, and functions called by pcall at each depth.
local obj = {}
function obj:check(v) if not v then error("check failed", 2) end return v end
local function validate(v) return obj:check(v) end
print("method level 2", pcall(validate, nil))
print("direct level 2", pcall(function() obj:check(false) end))
local function deep(n) if n == 0 then error("bottom", 3) end deep(n - 1) end
print("level 3 recursion", pcall(deep, 2))
local function assertArg(v, name) if type(v) ~= "number" then error("bad " .. name, 3) end end
local function api(x) assertArg(x, "x") return x end
print("level 3 helper", pcall(function() return api("s") end))
print("ok value", pcall(api, 5))
