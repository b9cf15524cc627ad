-- next with the keys a table holds, keys whose values were removed
-- during a traversal (still valid, as Lua 5.1 keeps dead keys), and keys
-- it never held: "invalid key to 'next'", where gopher-lua went on from
-- the table's second key.
local t = {10, 20, 30, x = 1, y = 2, z = 3}
local seen = {}
for k, v in pairs(t) do
  seen[#seen + 1] = tostring(k) .. "=" .. v
  t[k] = nil
end
table.sort(seen)
print(table.concat(seen, " "), next(t))
local h = {a = 1, b = 2, c = 3}
local k1 = next(h)
h[k1] = nil
local ok, k2, v2 = pcall(next, h, k1)
print(ok, k2 ~= k1 and h[k2] == v2)
print(pcall(next, {a = 1, b = 2, c = 3}, "zzz"))
print(pcall(next, {1, 2, 3}, 4))
print(pcall(next, {1, 2, 3}, 0))
print(pcall(next, {1, 2, 3}, 1.5))
print(pcall(next, {}, "x"))
print(pcall(next, {}, 1))
print(next({}), next({}, nil), next({5}))
print(next({5}, 1), next({[2] = 7}), next({[2] = 7}, 2))
print(pcall(function() return next({a = 1}, "b") end))
print(select(1, pairs({})) == next, type(pairs({})))
print(pcall(pairs))
local arr = {}
for i = 1, 5 do arr[i] = i end
arr[3] = nil
local ks = {}
for k in pairs(arr) do ks[#ks + 1] = k end
print(table.concat(ks, ","), pcall(next, arr, 3))
