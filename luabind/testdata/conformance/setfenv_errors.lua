-- Proves setfenv and getfenv give Lua 5.1's results and messages for Go
-- (C) functions, bad levels and bad environments.
print("setfenv print", pcall(function() return setfenv(print, {}) end))
print("setfenv string.len", pcall(function() return setfenv(string.len, {}) end))
print("setfenv bad env", pcall(function() return setfenv(function() end, 1) end))
print("setfenv bad level", pcall(function() return setfenv(50, {}) end))
print("setfenv negative", pcall(function() return setfenv(-1, {}) end))
print("getfenv print", getfenv(print) == _G)
print("getfenv bad level", pcall(function() return getfenv(50) end))
print("getfenv negative", pcall(function() return getfenv(-1) end))
local function f() return who end
print("setfenv returns", setfenv(f, {who = "me"}) == f, f())
