-- Proves the table library: insert/remove at every position, concat with
-- separators and ranges, sort with and without a comparator (also an
-- explicit nil), maxn, getn, the length of arrays, ipairs stopping at the
-- first nil, and next/pairs visiting every key once.
local t = {}
table.insert(t, "a")
table.insert(t, "c")
table.insert(t, 2, "b")
table.insert(t, 1, "z")
print("insert", table.concat(t, ","), #t)
print("remove last", table.remove(t), table.concat(t, ","))
print("remove first", table.remove(t, 1), table.concat(t, ","))
print("remove middle", table.remove({1, 2, 3}, 2))
print("remove empty", table.remove({}))
print("remove count", select("#", table.remove({})))
print("insert bad position", (pcall(table.insert, {1}, 5, 2)))
print("insert too many", (pcall(table.insert, {}, 1, 2, 3)))
print("concat", table.concat({1, 2, 3}), table.concat({1, 2, 3}, ", "))
print("concat range", table.concat({"a", "b", "c", "d"}, "-", 2, 3))
print("concat empty range", "[" .. table.concat({"a"}, "-", 2, 1) .. "]")
print("concat numbers", table.concat({1.5, 2, 3}, " "))
print("concat bad value", (pcall(table.concat, {1, {}, 3})))
print("concat nil hole", (pcall(table.concat, {1, 2}, ",", 1, 3)))
local nums = {5, 2, 8, 1, 9, 3}
table.sort(nums)
print("sort", table.concat(nums, " "))
table.sort(nums, function(a, b) return a > b end)
print("sort desc", table.concat(nums, " "))
local explicit = {3, 1, 2}
table.sort(explicit, nil)
print("sort explicit nil", table.concat(explicit, " "))
local words = {"pear", "Apple", "fig", "banana"}
table.sort(words)
print("sort strings", table.concat(words, " "))
local recs = {{n = "b", v = 2}, {n = "a", v = 3}, {n = "c", v = 1}}
table.sort(recs, function(x, y) return x.v < y.v end)
print("sort records", recs[1].n, recs[2].n, recs[3].n)
print("sort mixed types", (pcall(table.sort, {1, "a", 2})))
print("sort bad comparator type", (pcall(table.sort, {1, 2}, 3)))
local big = {}
for i = 1, 1000 do big[i] = (i * 7919) % 1000 end
table.sort(big)
local sorted = true
for i = 2, #big do if big[i - 1] > big[i] then sorted = false end end
print("sort big", sorted, big[1], big[1000])
print("maxn", table.maxn({1, 2, nil, 4}), table.maxn({[10] = 1, [2.5] = 1}), table.maxn({}))
print("getn", table.getn({1, 2, 3}))
print("length", #{1, 2, 3}, #{}, #{n = 1})
print("length after remove", (function() local a = {1, 2, 3} a[#a] = nil return #a end)())
local count = 0
for i, v in ipairs({1, 2, nil, 4}) do count = count + 1 end
print("ipairs stops at nil", count)
local keys = {}
for k in pairs({a = 1, b = 2, c = 3, 10, 20}) do keys[#keys + 1] = tostring(k) end
table.sort(keys)
print("pairs visits all", table.concat(keys, ","))
print("next empty", next({}))
print("next one", next({x = 1}))
local sparse = {}
sparse[1] = 1 sparse[2] = 2 sparse[4] = 4
print("sparse pairs count", (function() local n = 0 for _ in pairs(sparse) do n = n + 1 end return n end)())
local mutate = {a = 1, b = 2, c = 3}
for k in pairs(mutate) do mutate[k] = nil end
print("clear during pairs", next(mutate))
print("table.foreachi", (function() local s = 0 table.foreachi({1, 2, 3}, function(i, v) s = s + v end) return s end)())
print("table.foreach", (function() local s = 0 table.foreach({a = 1, b = 2}, function(k, v) s = s + v end) return s end)())
local nested = {{1, 2}, {3, {4, 5}}}
print("nested access", nested[2][2][1])
local constructor = {[1] = "a", "b", [3] = "c"}
print("constructor positional wins", constructor[1], constructor[3])
local mixed = {1, 2, x = "x", 3, [10] = 10}
print("constructor mixed", #mixed, mixed.x, mixed[10])
print("trailing separators", #{1, 2, 3,}, #{1; 2; 3;})
local ins = {}
for i = 1, 100 do table.insert(ins, 1, i) end
print("insert front many", ins[1], ins[100], #ins)
local rem = {}
for i = 1, 100 do rem[i] = i end
for i = 1, 50 do table.remove(rem, 1) end
print("remove front many", rem[1], #rem)
print("sort invalid order function", pcall(table.sort, {5, 3, 8, 1, 9, 2, 7}, function(a, b) return true end))
print("sort invalid order message", select(2, pcall(function() table.sort({5, 3, 8, 1, 9, 2, 7}, function() return true end) end)))
local ties = {}
for i = 1, 20 do ties[i] = {k = i % 3, id = i} end
table.sort(ties, function(a, b) return a.k < b.k end)
local ids = {}
for i, v in ipairs(ties) do ids[i] = v.id end
print("sort ties order as 5.1", table.concat(ids, " "))
print("sort with nan-free floats", (function() local f = {3.5, -1, 2.25, 0} table.sort(f) return table.concat(f, " ") end)())
print("sort two", (function() local f = {2, 1} table.sort(f) return f[1] .. f[2] end)())
print("sort one and none", pcall(table.sort, {1}), pcall(table.sort, {}))
