-- Proves runtime errors in loadstring chunks carry Lua 5.1's chunk
-- names: the source itself, its first line, "=name" and "@file".
local function run(src, name) return select(2, pcall(loadstring(src, name))) end
print("source name", run("error('boom')"))
print("first line", run("local x = 1\nerror('two')"))
print("equals name", run("error('named')", "=mychunk"))
print("at name", run("error('file')", "@scripts/mod.lua"))
print("long source", run("error('long') -- " .. ("x"):rep(80)))
print("level 2 in chunk", run("local function f() error('up', 2) end\nf()"))
