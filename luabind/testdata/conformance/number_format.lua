-- Numbers print as Lua 5.1 prints them: %.14g, whole numbers without a
-- fraction, inf, -inf and the sign of NaN, through print, tostring and ..
local zero = 0
local values = { 1/3, 2/3, -1/3, 0.1, 1e15, 1e14, 99999999999999, 123456789012345678,
  2^53, 2^63, -2^63, 1e100, 1e-5, 123.456e-7, 2^-1074, 1/0, -1/0, 0/0, -(0/0),
  -zero, 3, -7, 12.5, 1e300 * 1e10, 100, 1e5 }
for i, v in ipairs(values) do
  print(i, v, tostring(v), v .. "", "[" .. v .. "]")
end
print(1/3, 2/3)
print(#tostring(1/3), #(1/3 .. ""))
print(tostring(nil), tostring(true), tostring("s"))
