-- Proves sorting keys of mixed types with a comparator that orders by
-- type name then value (numbers, strings, booleans), as dump libraries
-- do, gives Lua 5.1's order.
local t = {[3] = 1, [1] = 1, b = 1, a = 1, [true] = 1, [false] = 1, [2.5] = 1, [-1] = 1, ["10"] = 1}
local keys = {}
for k in pairs(t) do keys[#keys + 1] = k end
table.sort(keys, function(x, y)
  local tx, ty = type(x), type(y)
  if tx ~= ty then return tx < ty end
  if tx == "boolean" then return (x and 1 or 0) < (y and 1 or 0) end
  return x < y
end)
local out = {}
for i, k in ipairs(keys) do out[i] = tostring(k) end
print("order", table.concat(out, " "))
