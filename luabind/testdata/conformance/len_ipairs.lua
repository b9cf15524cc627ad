-- Proves # and ipairs agree on arrays next to far or fractional keys,
-- and that pairs still visits every key.
local t = {10, 20, 30}
t[1e6] = 1
t[2.5] = 2
t[-3] = 3
local n = 0
for _ in ipairs(t) do n = n + 1 end
local all = 0
for _ in pairs(t) do all = all + 1 end
print("length ipairs pairs", #t, n, all)
local arr = {}
for i = 1, 1000 do arr[i] = i end
arr[5000] = true
print("long array", #arr, arr[#arr])
