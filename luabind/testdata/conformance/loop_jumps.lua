-- Proves loops whose first instruction gopher-lua compiles as a jump (an
-- and/or or a not of a constant in a while's condition, or first in a
-- repeat's or a generic for's body) run as in Lua 5.1: gopher-lua's jump
-- threading sent their jump back elsewhere (the body ran once, or the
-- chunk started again).
local cases = {
  {"while", "local n = 0 while (nil and 0 or n) < 3 do n = n + 1 end return n"},
  {"repeat", "local m = 0 repeat local v = nil and 1 or 2; m = m + v until m >= 6 return m"},
  {"generic for", "local c = 0 for _, x in ipairs({1, 2, 3}) do if nil and x then c = c + 100 end c = c + x end return c"},
  {"while true form", "local w = 0 while true do if not ((nil and 0 or w) < 3) then break end w = w + 1 end return w"},
  {"while true form dummy", "local w = 0 while true do local d; if not ((nil and 0 or w) < 3) then break end w = w + 1 end return w"},
  {"numeric for", "local k = 0 for i = 1, 3 do if nil and i then k = k + 100 end k = k + i end return k"},
  {"repeat break first", "local r = 0 repeat if r > 2 then break end r = r + 1 until false return r"},
  {"while not nil", "local q = 0 while not nil and q < 3 do q = q + 1 end return q"},
  {"nested", "local z = 0 for i = 1, 2 do while not nil or not nil do z = z + 1 if z > 5 then break end end end return z"},
  {"repeat dummy", "local m = 0 repeat local d; local v = nil and 1 or 2; m = m + v until m >= 6 return m"},
  {"while if first", "local n = 0 while n < 3 do if nil and n then n = 100 end n = n + 1 end return n"},
  {"repeat break only", "local n = 0 repeat n = n + 1 if n < 3 then else break end until false return n"},
  {"generic for break first", "local c = 0 for _, x in ipairs({1, 2, 3}) do break end return c"},
  {"while false and", "local n = 0 while false and n or n < 2 do n = n + 1 end return n"},
}
for _, c in ipairs(cases) do
  local f = loadstring(c[2])
  print(c[1], pcall(f))
end
