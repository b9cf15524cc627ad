-- Proves arrays longer than gopher-lua's array slice (2^18 elements in
-- luahost) keep working: #, ipairs, table.insert/remove, unpack, sort,
-- concat and getn see the elements past it, and sparse writes far out
-- are cheap hash entries.
local n = 300000
local t = {}
for i = 1, n do t[#t + 1] = i end
print("append", #t, t[n], t[262144], t[262145])
local count, sum = 0, 0
for i, v in ipairs(t) do count = count + 1 sum = sum + v end
print("ipairs", count, sum)
table.insert(t, "last")
print("insert at end", #t, t[#t])
table.insert(t, 1, "first")
print("insert at front", #t, t[1], t[2], t[#t])
print("remove at end", table.remove(t), #t)
print("remove at front", table.remove(t, 1), #t, t[1])
print("unpack tail", unpack(t, n - 2, n))
print("getn", table.getn(t))
local s = {}
for i = 1, n do s[i] = (i * 7919) % n end
table.sort(s)
print("sort", s[1], s[2], s[n], #s)
local parts = {}
for i = 1, 270000 do parts[i] = "x" end
print("concat", #table.concat(parts), #table.concat(parts, ",", 262140, 262150))
for i = n, 262140, -1 do t[i] = nil end
print("shrink", #t)
local sparse = {}
sparse[67108863] = true
sparse[2^40] = "far"
print("sparse", #sparse, sparse[67108863], sparse[2^40])
local holes = {}
holes[1], holes[2], holes[500000] = 1, 2, 3
print("holes", holes[500000], holes[3])
