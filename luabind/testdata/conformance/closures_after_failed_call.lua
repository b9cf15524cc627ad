-- A closure made inside a call that failed under pcall keeps the last
-- values of that call's locals, and closures made together keep sharing
-- them; the registers the failed call used are reused at once after.
local keep
print(pcall(function()
  local x, t = 5, {n = 1}
  keep = function() x = x + 1; t.n = t.n * 2; return x, t.n end
  error("boom")
end))
local a, b, c, d, e = 100, 200, 300, 400, 500
print(keep(), keep())
print(a, b, c, d, e)

-- Two closures over one local of the failed call.
local get, set
pcall(function()
  local shared = "first"
  get = function() return shared end
  set = function(v) shared = v end
  local y = nil + 1
end)
local filler = {"x", "y", "z"}
set("second")
print(get(), #filler)

-- Frames several deep: each level's locals are kept.
local saved = {}
local function level(n)
  local mine = "level " .. n
  saved[n] = function() return mine end
  if n == 3 then error({code = n}) end
  level(n + 1)
end
local ok, err = pcall(level, 1)
print(ok, type(err), err.code)
local p, q, r = "p", "q", "r"
print(saved[1](), saved[2](), saved[3](), p, q, r)

-- xpcall: the handler and the code after it see the last values.
local counter
print(xpcall(function()
  local n = 41
  counter = function() n = n + 1; return n end
  error("in xpcall")
end, function(m) return "handled: " .. tostring(counter()) end))
local s1, s2, s3 = "s1", "s2", "s3"
print(counter(), s1, s2, s3)

-- A library function's error, and a closure made in a loop that failed.
local fns = {}
print(pcall(function()
  for i = 1, 3 do
    local v = i * 10
    fns[i] = function() return v end
  end
  local w = "w"
  fns[4] = function() return w end
  string.rep()
end))
local z1, z2 = {}, {}
print(fns[1](), fns[2](), fns[3](), fns[4]())

-- Nested pcalls: the inner failure, caught, keeps its closure; the outer
-- one, failing later, keeps its own.
local inner, outer
pcall(function()
  local o = "outer local"
  outer = function() return o end
  pcall(function()
    local i = "inner local"
    inner = function() return i end
    error("inner")
  end)
  local pad1, pad2 = 1, 2
  error("outer")
end)
local u1, u2, u3 = 1, 2, 3
print(inner(), outer())

-- The function around pcall keeps sharing its own locals with closures.
local function around()
  local mine = 0
  local bump = function() mine = mine + 1 end
  pcall(function() bump(); error("x") end)
  bump()
  return mine
end
print(around())
