-- Proves # after removing the last elements, clearing the array, and
-- setting holes at the end follows Lua 5.1's borders for dense arrays.
local t = {}
for i = 1, 100 do t[i] = i end
for i = 100, 51, -1 do t[i] = nil end
print("halved", #t)
for i = 50, 1, -1 do t[i] = nil end
print("emptied", #t, next(t))
local u = {1, 2, 3, 4, 5}
u[5] = nil
u[4] = nil
print("two off the end", #u)
local v = {"a", "b", "c"}
table.remove(v)
table.remove(v)
print("removed", #v, v[1])
