-- Yielding across pcall, xpcall, print, tostring, a metamethod, a gsub
-- callback, a sort comparator or a for iterator is the clean Lua 5.1
-- error "attempt to yield across metamethod/C-call boundary"; plain
-- yields still work.
local function try(name, f)
  local co = coroutine.create(f)
  local ok, a, b = coroutine.resume(co)
  print(name, ok, a, b, coroutine.status(co))
  if coroutine.status(co) == "suspended" then print(" again", coroutine.resume(co, "v")) end
end
try("pcall", function() return pcall(coroutine.yield, 1) end)
try("pcall fn", function() return pcall(function() coroutine.yield(1) return 2 end) end)
try("xpcall", function() return xpcall(function() coroutine.yield(1) end, function(m) return "handled: " .. m end) end)
try("print", function() print(setmetatable({}, { __tostring = function() coroutine.yield(1) return "x" end })) end)
try("index", function() local t = setmetatable({}, { __index = function() return coroutine.yield(1) end }) return t.x end)
try("gsub", function() return (string.gsub("abc", "b", function() coroutine.yield(1) end)) end)
try("sort", function() local t = { 3, 2, 1 } table.sort(t, function(a, b) coroutine.yield(1) return a < b end) end)
try("tostring", function() return tostring(setmetatable({}, { __tostring = function() coroutine.yield(1) return "x" end })) end)
try("add", function() return setmetatable({}, { __add = function() coroutine.yield(1) return 1 end }) + 1 end)
try("iterator", function() for k in function() coroutine.yield(1) end do end end)
try("plain", function() coroutine.yield(1) return 5 end)
try("nested function", function() local function deep(n) if n == 0 then return coroutine.yield("deep") end return deep(n - 1) end return deep(10) end)
try("pcall then yield", function() pcall(error, "x") local v = coroutine.yield(2) return v end)
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
print("wrap", gen(), gen(), gen())
print("outside", pcall(coroutine.yield, 1))
local inner = coroutine.create(function()
  local co = coroutine.create(function() coroutine.yield("in") return "done" end)
  print("inner", coroutine.resume(co))
  coroutine.yield("out")
  print("inner", coroutine.resume(co))
end)
print("outer", coroutine.resume(inner))
print("outer", coroutine.resume(inner))
