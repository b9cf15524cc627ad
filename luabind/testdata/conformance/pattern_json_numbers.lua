-- Proves the number formatting JSON encoders rely on: %.14g, whole
-- numbers without a fraction, integers past 2^31, tiny and huge values,
-- the checks for nan and inf, and string.format("%d") of floats.
local function enc(n)
  if n ~= n then return "null" end
  if n == math.huge or n == -math.huge then return "null" end
  if math.floor(n) == n and math.abs(n) < 1e15 then return string.format("%d", n) end
  return string.format("%.14g", n)
end
local nums = {0, 1, -1, 0.5, 1 / 3, 2 ^ 31, 2 ^ 53, 1e15, 1e16, 1e-7, 123.456, -0.000001, 1e300, 0 / 0, math.huge}
local out = {}
for i, n in ipairs(nums) do out[i] = enc(n) end
print("encoded", table.concat(out, ","))
print("tostring", tostring(1e15), tostring(1e16), tostring(123456789012), tostring(0.1))
print("format g", string.format("%.17g", 0.1), string.format("%.3f", 2 / 3), string.format("%5.2e", 12345))
print("decode", tonumber("1e-7"), tonumber("-0.5"), tonumber("12E3"), tonumber(".5e1"))
print("round trip", tonumber(tostring(1 / 3)) == 1 / 3, tonumber(string.format("%.17g", 1 / 3)) == 1 / 3)
