-- Proves # of arrays with nil written at the end or middle after
-- building them by appending, where Lua 5.1's array part is a power of
-- two and its bisection finds the border.
local t = {}
for i = 1, 10 do t[i] = i end
t[10] = nil
print("last removed", #t)
t[5] = nil
print("hole in middle", #t)
local u = {}
for i = 1, 16 do u[i] = i end
u[16] = nil
u[15] = nil
print("power of two", #u)
local v = {}
for i = 1, 8 do v[i] = i end
v[9] = 9
print("grown past power", #v)
local function pack(...) return {...} end
print("constructor hole", #{1, nil, 3}, #pack(1, nil, 3), #pack(nil, 2))
print("unpack of packed", select("#", unpack(pack("a", nil, "c"))))
local mostly = {1, 2, nil, 4, 5, nil, 7, 8, 9}
print("mostly full", #mostly)
