-- Proves debug.getinfo and debug.traceback take a numeric string level
-- as Lua 5.1 converts it.
local function here() return debug.getinfo("1", "l").currentline end
print("getinfo level", here())
print("getinfo caller", (function() return debug.getinfo("2", "S").short_src end)())
local tb = debug.traceback("msg", "1")
print("traceback level", (tb:gsub("\n.*", "")), tb:find("stack traceback:", 1, true) ~= nil)
print("getinfo beyond", debug.getinfo("100"))
local function tailed() local i = debug.getinfo(2, "Sl") return i.what, i.source, i.short_src, i.currentline end
local function caller() return tailed() end
print("tail call level", caller())
print("through pcall", select(2, pcall(function() return debug.getinfo(2, "S").what end)))
