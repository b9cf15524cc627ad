-- Error messages name a local only within its scope: after a block has
-- closed, its registers hold temporaries and later locals, which must be
-- named as what they are. Lua 5.1 and luahost word the message
-- differently (see deliberate_runtime_wording.lua); each check prints
-- the kind and name the message gives.
local function culprit(label, fn, ...)
  local ok, msg = pcall(fn, ...)
  local kind, name = tostring(msg):match("(%a+) '([^']*)'")
  print(label, ok, kind or "-", name or "-")
end

culprit("after do", function()
  do local u1, u2, u3 = 1, 2, 3 end
  local t = {}
  local z = t.x.y
end)

culprit("local after do", function()
  do local u1, u2, u3 = 1, 2, 3 end
  local v
  v.x = 1
end)

culprit("call after do", function()
  do local a, b = 1, 2 end
  local f
  f()
end)

culprit("after numeric for", function()
  for i = 1, 2 do local a, b = i, i end
  local t = {}
  return t.x.y
end)

culprit("temp after numeric for", function()
  for i = 1, 2 do local a = i end
  return {} .. "x"
end)

culprit("after generic for", function()
  for k, v in pairs({1, 2}) do local w = v end
  local t = {n = {}}
  return t.n.m.o
end)

culprit("after while", function()
  local n = 0
  while n < 2 do local a, b, c = n, n, n; n = n + 1 end
  local s
  return s + 1
end)

culprit("after repeat", function()
  local n = 0
  repeat local a, b, c = n, n, n; n = n + 1 until n > 1
  local t = {}
  return t.x.y
end)

culprit("after repeat with closure", function()
  local n, keep = 0, nil
  repeat local a, b, c = n, n, n; keep = function() return a end; n = n + 1 until c > 0
  local t = {}
  return t.x.y
end)

culprit("until sees body local", function()
  repeat local r until r.x
end)

culprit("after if then", function()
  if true then local a, b, c = 1, 2, 3 end
  local t = {}
  return t.x.y
end)

culprit("after if else", function()
  if false then local a, b, c = 1, 2, 3 else local d, e = 4, 5 end
  local t = {}
  return t.x.y
end)

culprit("after elseif", function(x)
  if x == 1 then local a = 1 elseif x == 2 then local b, c = 2, 3 else local d, e, f = 1, 2, 3 end
  local g
  return g.h
end, 3)

culprit("then local", function()
  if true then local q; q.x = 1 end
end)

culprit("else local", function()
  if false then local a = 1 else local p; p.x = 1 end
end)

culprit("loop body local", function()
  for i = 1, 2 do
    do local a, b, c = i, i, i end
    local q
    q.x = 1
  end
end)

culprit("nested blocks", function()
  do
    do local a, b, c = 1, 2, 3 end
    local d, e = 4, 5
    do local f, g, h = 6, 7, 8 end
  end
  local t = {}
  return t.x.y
end)

culprit("parameter after block", function(p1, p2)
  do local a, b, c = 1, 2, 3 end
  return p2.x
end, 1)

culprit("last statement local", function()
  do local dead = 1 end
  return ({}).x.y
end)

local obj = {}
function obj:method()
  for i = 1, 2 do local a, b = i, i end
  local t = self.missing
  return t.x
end
culprit("method", function() return obj:method() end)

culprit("vararg", function(...)
  do local a, b, c = ... end
  local w
  return w[1]
end, 1, 2, 3)

culprit("arith after blocks", function()
  for i = 1, 1 do local a, b, c = 1, 2, 3 end
  local m = {}
  return m.count + 1
end)

culprit("upvalue after block", function()
  local up
  local function inner()
    do local a, b, c = 1, 2, 3 end
    return up.x
  end
  return inner()
end)
