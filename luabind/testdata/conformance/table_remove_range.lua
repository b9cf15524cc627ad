-- Proves table.remove at positions outside 1..#t leaves the table alone
-- and returns nil, as Lua 5.1.5 does, and removes within the range.
local function show(t) local o = {} for i = 1, 5 do o[i] = tostring(t[i]) end return table.concat(o, ",") end
local t = {1, 2, 3}
print("beyond", table.remove(t, 10), show(t), #t)
print("zero", table.remove(t, 0), show(t), #t)
print("negative", table.remove(t, -1), show(t), #t)
print("one past", table.remove(t, #t + 1), show(t), #t)
print("last", table.remove(t, #t), show(t))
print("first", table.remove(t, 1), show(t))
local e = {}
print("empty", table.remove(e), table.remove(e, 1), table.remove(e, 0), #e)
print("result count", select("#", table.remove({1}, 5)), select("#", table.remove({})))
local z = {[0] = "zero"}
print("empty with zero key", table.remove(z), z[0])
local s = {"a", "b"}
print("string position", table.remove(s, "1"), show(s))
