-- debug.getinfo names a function as its caller's call names it: name and
-- namewhat (local, global, field, method, upvalue), none through a tail
-- call, pcall or a metamethod.
local function show(i) return tostring(i.name) .. "/" .. tostring(i.namewhat) end
local function f() return show(debug.getinfo(1, "n")) end
print("local", f())
local t = {m = function() return show(debug.getinfo(1, "n")) end}
print("field", t.m())
print("method", t:m())
g = function() return show(debug.getinfo(1, "n")) end
print("global", g())
local up = f
local function viaUp() return up() end
print("upvalue-tail", viaUp())
local function viaUp2() local r = up(); return r end
print("upvalue", viaUp2())
print("pcall", pcall(f))
print("level0", show(debug.getinfo(0, "n")))
print("main", show(debug.getinfo(1, "n")))
print("func arg", show(debug.getinfo(f, "n")))
local arr = {function() return show(debug.getinfo(1, "n")) end}
print("index", arr[1]())
local k = "m"
print("dyn key", t[k]())
print("meta", setmetatable({}, {__add = function() return show(debug.getinfo(1, "n")) end}) + 1)
for x in function(s, c) if c then return nil end return show(debug.getinfo(1, "n")) end do print("iter", x) end
print("caller", (function() return show(debug.getinfo(2, "n")) end)())
print("past", debug.getinfo(50, "n"))
