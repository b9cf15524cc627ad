-- Proves coroutines: resume/yield value passing both ways, status through
-- the lifecycle, wrap, errors inside a coroutine, resuming a dead one,
-- running, and generators.
local co = coroutine.create(function(a, b)
  print("started with", a, b)
  local c = coroutine.yield(a + b)
  print("got", c)
  local d, e = coroutine.yield(c * 2)
  print("got two", d, e)
  return "done", 99
end)
print("status new", coroutine.status(co))
print("resume 1", coroutine.resume(co, 1, 2))
print("status suspended", coroutine.status(co))
print("resume 2", coroutine.resume(co, 10))
print("resume 3", coroutine.resume(co, "x", "y"))
print("status dead", coroutine.status(co))
print("resume dead", coroutine.resume(co))
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
print("wrap", gen(), gen(), gen())
local bad = coroutine.create(function() error("inside", 0) end)
print("error in coroutine", coroutine.resume(bad))
print("status after error", coroutine.status(bad))
local bad2 = coroutine.create(function() error({code = 7}) end)
local ok, e = coroutine.resume(bad2)
print("error object", ok, type(e), e.code)
local w = coroutine.wrap(function() error("wrapped", 0) end)
print("wrap error", pcall(w))
print("running main", coroutine.running())
local inner
local outer = coroutine.create(function()
  inner = coroutine.running()
  print("running is self", type(inner), coroutine.status(inner))
  coroutine.yield()
end)
coroutine.resume(outer)
print("status of suspended", coroutine.status(outer))
local nested
nested = coroutine.create(function()
  local sub = coroutine.create(function() coroutine.yield("sub") return "subdone" end)
  print("nested 1", coroutine.resume(sub))
  print("outer status from inside", coroutine.status(nested))
  coroutine.yield("outer")
  print("nested 2", coroutine.resume(sub))
end)
print("outer 1", coroutine.resume(nested))
print("outer 2", coroutine.resume(nested))
local function range(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i, i * i) end end)
end
local s = 0
for i, sq in range(5) do s = s + sq end
print("generator loop", s)
print("yield outside coroutine", (pcall(coroutine.yield, 1)))
print("resume non-coroutine", (pcall(coroutine.resume, 1)))
local self_resume
self_resume = coroutine.create(function() return coroutine.resume(self_resume) end)
print("resume running", coroutine.resume(self_resume))
local many = coroutine.create(function(...) return select("#", ...), ... end)
print("pass many", coroutine.resume(many, 1, nil, 3))
local yv = coroutine.create(function() coroutine.yield() end)
print("empty yield", select("#", coroutine.resume(yv)))
local counter = 0
local cos = {}
for i = 1, 100 do
  cos[i] = coroutine.create(function() while true do counter = counter + 1; coroutine.yield() end end)
end
for round = 1, 3 do for i = 1, 100 do coroutine.resume(cos[i]) end end
print("many coroutines", counter)
