-- Proves breaking out of an if or a do inside a loop closes the locals of
-- those blocks that closures captured, as Lua 5.1 does: gopher-lua left
-- them open, and the closure then shared a later local's register.
local f
while true do
  if true then
    local y = 10
    f = function() return y end
    break
  end
end
local a, b = 1, 2
print("while if", f(), a, b)
local g
while true do
  do local y = 10; g = function(v) y = v end; break end
end
local c, d = 1, 2
g(99)
print("while do", c, d)
local fs = {}
for i = 1, 3 do
  if i == 2 then local z = i * 10; fs[#fs + 1] = function() return z end; break end
  local w = i; fs[#fs + 1] = function() return w end
end
local p, q, r = 7, 8, 9
print("for", fs[1](), fs[2](), p, q, r)
local h
for _, v in ipairs({5, 6}) do
  if v == 5 then local k = v * 4; h = function() return k end break end
end
local s1, s2 = 3, 4
print("generic for", h(), s1, s2)
local m
repeat
  if true then local n = 20 m = function() return n end break end
until false
local t1, t2 = 5, 6
print("repeat", m(), t1, t2)
local o
for i = 1, 2 do
  while true do
    if i then local u = i + 100; o = function() return u end; break end
  end
end
local v1, v2 = 0, 0
print("nested", o(), v1, v2)
