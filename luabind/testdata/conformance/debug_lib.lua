-- Proves the read-only debug functions: traceback's message, header and
-- first frames (so xpcall(f, debug.traceback) works), and getinfo's
-- source, short_src, what, linedefined, currentline and name fields for
-- functions and stack levels.
local function firstLines(s, n)
  local out = {}
  for line in (s .. "\n"):gmatch("([^\n]*)\n") do
    out[#out + 1] = line
    if #out == n then break end
  end
  return table.concat(out, " | ")
end
local function inner() return debug.traceback("boom") end
local function outer() local tb = inner() return tb end
print("traceback head", firstLines(outer(), 3))
print("traceback no message", firstLines(debug.traceback(), 1))
print("traceback non-string message", type(debug.traceback({})))
print("traceback number message", firstLines(debug.traceback(12), 2))
local ok, tb = xpcall(function() local x = nil; return x.field end, debug.traceback)
print("xpcall traceback", ok, (tb:match("\nstack traceback:\n")) ~= nil)
local ok2, tb2 = xpcall(function() error("raised") end, debug.traceback)
print("xpcall traceback message", ok2, (tb2:gsub("\n.*", "")))
local function probe() return debug.getinfo(1) end
local info = probe()
print("getinfo level source", info.source, info.short_src)
print("getinfo level lines", info.currentline, info.linedefined, info.lastlinedefined, info.what)
local fi = debug.getinfo(probe)
print("getinfo function", fi.source, fi.short_src, fi.linedefined, fi.lastlinedefined, fi.what, fi.currentline)
print("getinfo func field", fi.func == probe)
print("getinfo C function", debug.getinfo(print).what, debug.getinfo(print).short_src, debug.getinfo(print).source)
print("getinfo main chunk", debug.getinfo(1).what, debug.getinfo(1, "S").linedefined)
local function named() return debug.getinfo(1, "n").name end
print("getinfo name", named())
print("getinfo past stack", debug.getinfo(100))
print("getinfo option S only", debug.getinfo(1, "S").currentline, debug.getinfo(1, "l").source)
print("getinfo bad option", (pcall(debug.getinfo, 1, "x")))
print("getinfo of loadstring chunk", debug.getinfo(loadstring("return 1")).short_src, debug.getinfo(loadstring("return 1")).what)
print("getinfo of named chunk", debug.getinfo(loadstring("return 1", "=custom")).short_src)
print("getinfo negative level", type(debug.getinfo(-1)))
