-- Proves table.insert at positions inside 1..#t+1 shifts as in Lua 5.1.5,
-- and out-of-range positions behave as Lua 5.1.5 does (no bounds check:
-- the value is stored at that key).
local function show(t) local o = {} for i = -1, 6 do o[#o + 1] = tostring(t[i]) end return table.concat(o, ",") end
local t = {1, 2, 3}
table.insert(t, 4, "end")
print("one past", show(t))
t = {1, 2, 3}
table.insert(t, 1, "front")
print("front", show(t))
t = {1, 2, 3}
print("zero", pcall(table.insert, t, 0, "z"))
print("after zero", show(t))
t = {1, 2, 3}
print("far", pcall(table.insert, t, 6, "far"))
print("after far", show(t))
t = {1, 2, 3}
print("negative", pcall(table.insert, t, -1, "neg"))
print("after negative", show(t))
t = {1, 2}
table.insert(t, "2", "s")
print("string position", show(t))
print("wrong count", pcall(table.insert, {}, 1, 2, 3))
print("one arg", pcall(table.insert, {}))
