-- Proves arrays past 65,535 elements work as in Lua 5.1: appending with
-- t[#t+1], #, ipairs, table.insert/remove and unpack near the end, and a
-- sparse write at a huge index that stays cheap.
local t = {}
for i = 1, 70000 do t[#t + 1] = i end
print("append 70000", #t, t[70000])
local sum = 0
for _, v in ipairs(t) do sum = sum + v end
print("ipairs 70000", sum)
table.insert(t, 70001)
print("insert at end", #t, t[#t])
print("remove at end", table.remove(t), #t)
print("unpack tail", unpack(t, 69998, 70000))
local big = {}
for i = 1, 200000 do big[i] = i % 7 end
print("fill 200000", #big, big[200000])
local s = {}
s[67108863] = true
print("sparse huge index", s[67108863], #s == 0 or #s == 67108863)
local u = {}
for i = 1, 100000 do u[i] = true end
for i = 100000, 1, -1 do u[i] = nil end
print("emptied", #u, next(u))
local h = {}
for i = 1, 66000 do h[i] = i end
h[66001] = "x"
print("border after 65535", #h, h[#h])
local sorted = {}
for i = 1, 70000 do sorted[i] = (i * 7919) % 70000 end
table.sort(sorted)
print("sort 70000", sorted[1], sorted[70000], #sorted)
print("concat 70000", #table.concat(t, ","))
