-- Proves load and loadstring: chunks see the globals, get their varargs,
-- report syntax errors as nil plus a message, and name themselves in
-- runtime errors exactly as Lua 5.1 does ([string "..."], "=name",
-- "(load)"); and setfenv/getfenv on functions. (The sandbox's load also
-- takes a string, as Lua 5.2 does; Lua 5.1's does not, so that is not
-- compared here.)
local f = loadstring("return 1 + 2")
print("loadstring result", f())
print("loadstring varargs", loadstring("return select('#', ...), ...")(7, 8))
shared = 5
print("loadstring sees globals", loadstring("return shared * 2")())
print("loadstring syntax error", loadstring("x = = 1"))
print("loadstring named syntax error", loadstring("x = = 1", "=named"))
print("runtime error default name", pcall(loadstring("error('x')")))
print("runtime error two lines", pcall(loadstring("local x = 1\nerror('x')")))
print("runtime error long source", pcall(loadstring(("x"):rep(100) .. " = 1 error('x')")))
print("runtime error = name", pcall(loadstring("error('x')", "=name")))
print("runtime error @ name", pcall(loadstring("error('x')", "@file.lua")))
print("runtime error plain name", pcall(loadstring("error('x')", "some chunk")))
print("runtime error arithmetic", (pcall(loadstring("local t = nil; return t + 1", "=calc"))))
local parts = {"return ", "40 ", "+ 2"}
local i = 0
print("load with reader", load(function() i = i + 1 return parts[i] end)())
local n = 0
print("load reader error name", pcall(load(function() n = n + 1 if n == 1 then return "error(1)" end end)))
print("load named", pcall(load(function() n = n + 1 if n == 3 then return "error('y')" end end, "=mine")))
local env = {x = 42}
local g = loadstring("return x")
setfenv(g, env)
print("setfenv function", g())
print("getfenv function", getfenv(g) == env)
local function h() return y end
setfenv(h, {y = "env y"})
print("setfenv local function", h())
print("getfenv default is globals", getfenv() == _G, getfenv(1) == _G)
print("dostring style", pcall(loadstring("return ...")))
print("loadstring empty", loadstring("")())
print("load nil result", select("#", loadstring("return")()))
