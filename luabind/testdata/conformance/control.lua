-- Proves control flow as in Lua 5.1: numeric for (its copy of the
-- control variable, float steps, step 0 error), generic for, while,
-- repeat-until seeing its body's locals, break, nested loops, and/or
-- short-circuit values, and the evaluation order of operands.
local out = {}
for i = 1, 3 do i = i * 10 out[#out + 1] = i end
print("for variable is a copy", table.concat(out, ","))
local n = 0
for i = 1, 2, 0.5 do n = n + 1 end
print("float step", n)
print("step zero", (pcall(function() for i = 1, 2, 0 do break end end)))
print("for with string bounds", (pcall(function() local c = 0 for i = "1", "3" do c = c + 1 end return c end)))
local r = 0
repeat local done = r >= 3; r = r + 1 until done
print("repeat sees body locals", r)
local w = 0
while true do w = w + 1 if w == 5 then break end end
print("while break", w)
local found
for i = 1, 3 do for j = 1, 3 do if i * j == 4 then found = i .. "," .. j break end end if found then break end end
print("nested break", found)
print("and or values", nil and 1, false or "x", 1 and 2, nil or false, false and nil)
print("not", not nil, not 0, not "")
local calls = {}
local function f(x) calls[#calls + 1] = x return x end
local _ = f(1) + f(2) * f(3)
print("operand order", table.concat(calls, ","))
calls = {}
local _ = f(false) and f(1)
local _ = f(true) or f(2)
print("short circuit", table.concat((function() local o = {} for i, v in ipairs(calls) do o[i] = tostring(v) end return o end)(), ","))
local s = 0
for k, v in next, {10, 20, 30} do s = s + v end
print("generic for with next", s)
local function range(n)
  local i = 0
  return function() i = i + 1 if i <= n then return i end end
end
local total = 0
for i in range(4) do total = total + i end
print("closure iterator", total)
do local a = 1 do local a = 2 end print("block scope", a) end
local x = 10
local function shadow() local x = x + 1 return x end
print("shadow uses outer in initializer", shadow(), x)
print("comparison chain", 1 < 2 == true, "a" .. "b" == "ab")
print("concat precedence", "x" .. 1 + 2)
print("power right assoc", 2 ^ 3 ^ 2)
print("unary precedence", -2 ^ 2, not 1 == 2)
