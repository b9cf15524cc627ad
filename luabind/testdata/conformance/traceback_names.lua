-- debug.traceback names each level as Lua 5.1 does: by how its caller
-- called it, "(tail call)" for a level a tail call replaced, "?" for a Go
-- function called without a name; pcall's own wrapper is not a level.
-- Only the levels inside the program are printed: what called the
-- program differs between a host and the standalone interpreter.
local function upto(tb, marker)
  local out = {}
  for line in tb:gmatch("[^\n]+") do
    out[#out + 1] = line
    if line:find(marker, 1, true) then break end
  end
  return table.concat(out, "\n")
end

local function lvl3() return debug.traceback("tb", 1) end
local t = {}
function t.field() local r = lvl3(); return r end
function t:meth() local r = t.field(); return r end
local function tail() return t:meth() end
G = function() local r = tail(); return r end
local arr = {function() local r = G(); return r end}
local function top() local r = arr[1](); return r end
print(upto(top(), "'top'"))

print(upto(select(2, pcall(function()
  local x = setmetatable({}, {__index = function(s, k) return debug.traceback("meta") end})
  return x.y
end)), "'pcall'"))

local function iterate()
  for v in function(s, c) if c then return nil end return debug.traceback("iter") end do return v end
end
print(upto(iterate(), "'iterate'"))

local co = coroutine.create(function() local function inner() coroutine.yield() end inner() end)
coroutine.resume(co)
print(debug.traceback(co, "co"))
print(debug.traceback(co, "co level 1", 1))
