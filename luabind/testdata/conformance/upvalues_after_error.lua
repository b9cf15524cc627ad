-- Locals and upvalues stay shared after an error is caught (gopher-lua's
-- issue 448: its pcall detaches the upvalues of the functions around it).
local c
local function f() pcall(error, "e") c = 1 end
f()
print("pcall(error)", c)

local d
local function g() pcall(function() local x = nil + 1 end) d = 2 end
g()
print("runtime error", d)

local e
local function h() xpcall(function() error("x") end, function(m) return m end) e = 3 end
h()
print("xpcall", e)

local count = 0
local function inc() count = count + 1 end
for i = 1, 5 do
  pcall(error, i)
  inc()
end
print("loop", count)

local outer = 0
local function level1()
  local function level2()
    pcall(function() error({}) end)
    outer = outer + 10
  end
  level2()
  outer = outer + 1
end
level1()
print("nested functions", outer)

local co_seen
local co = coroutine.create(function()
  local v = 0
  local function bump() v = v + 1 end
  pcall(error, "in coroutine")
  bump()
  coroutine.yield(v)
  pcall(function() error("again") end)
  bump()
  co_seen = v
  return v
end)
print("coroutine", coroutine.resume(co))
print("coroutine", coroutine.resume(co))
print("coroutine local", co_seen)

local memo = {}
local calls = 0
local function memoize(fn)
  return function(x)
    if memo[x] == nil then
      local ok, v = pcall(fn, x)
      memo[x] = ok and v or false
      calls = calls + 1
    end
    return memo[x]
  end
end
local sq = memoize(function(x) if x < 0 then error("negative") end return x * x end)
print("memoize", sq(3), sq(3), sq(-1), sq(-1), calls)

print(pcall(error))
print(pcall(error, "direct"))
print(select("#", pcall(error, nil)))
local function lvl2() error("two", 2) end
local ok, msg = pcall(function()
  lvl2()
end)
print(msg)
print(pcall(function() error(42) end))
print(pcall(function() error("zero", 0) end))
