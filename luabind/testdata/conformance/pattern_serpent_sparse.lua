-- Proves dumping sparse tables (a few far numeric keys next to a short
-- array, as serpent meets them) visits only the real keys: # gives the
-- short array and sorting the keys stays small.
local t = {false, 1, 2}
t[178634] = 1
t[99999] = "x"
local keys, n = {}, 0
for k in pairs(t) do n = n + 1 keys[#keys + 1] = k end
table.sort(keys, function(a, b) return a < b end)
print("length", #t)
print("key count", n, #keys)
print("keys", table.concat((function() local s = {} for i, k in ipairs(keys) do s[i] = tostring(k) end return s end)(), ","))
local out = {}
for i = 1, #t do out[#out + 1] = tostring(t[i]) end
for _, k in ipairs(keys) do if k > #t then out[#out + 1] = "[" .. k .. "]=" .. tostring(t[k]) end end
print("dump", table.concat(out, " "))
local ids = {}
ids[1001], ids[2002], ids[3003] = "a", "b", "c"
print("id table length", #ids, table.maxn(ids))
