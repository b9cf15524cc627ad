-- Proves table.remove's result and the table after it for the default
-- position, explicit last, first, numeric strings and an empty table.
local function show(t) return "[" .. table.concat(t, ",") .. "]" end
local t = {1, 2, 3, 4}
print("default", table.remove(t), show(t))
print("explicit last", table.remove(t, #t), show(t))
print("string first", table.remove(t, "1"), show(t))
print("down to empty", table.remove(t), table.remove(t), show(t))
print("empty", table.remove(t), show(t), #t)
local loop = {1, 2, 3, 4, 5, 6}
for i = #loop, 1, -1 do if loop[i] % 2 == 0 then table.remove(loop, i) end end
print("remove evens", show(loop))
