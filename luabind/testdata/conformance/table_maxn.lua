-- Proves table.maxn is the largest positive numeric key anywhere in the
-- table (array or hash part), floats included, as Lua 5.1 computes it.
local big = {}
for i = 1, 300005 do big[i] = i end
print("dense large", table.maxn(big))
print("one far key", table.maxn({[300000] = 1}))
print("float key", table.maxn({[1.5] = true}))
print("negative only", table.maxn({[-5] = 1}))
print("mixed", table.maxn({1, 2, [10] = 1, [7.5] = 1, x = 1}))
print("empty", table.maxn({}))
local holes = {1, 2, 3}
holes[2] = nil
holes[3] = nil
print("holes at end", table.maxn(holes))
local s = {}
s[2 ^ 40] = 1
s[3] = 1
print("huge key", table.maxn(s))
print("string keys", table.maxn({a = 1, ["10"] = 2}))
