-- Proves and/or over falsy fields assigned to a field, an index, a
-- parameter and a for-loop variable's copy behave as in Lua 5.1.
local y = {}
local t = {x = "old", [1] = "old"}
t.x = y.a and 1
t[1] = y.a and 1
print("field and index", t.x, t[1])
local function p(arg)
  arg = y.a and arg
  return arg
end
print("parameter", p("given"))
local res = {}
for i = 1, 3 do
  local v = i
  v = y[i] and v
  res[i] = tostring(v)
end
print("loop copy", table.concat(res, ","))
local self = {target = {hp = 3}}
local hp = "old"
hp = self.target and self.target.missing
print("two levels", hp)
