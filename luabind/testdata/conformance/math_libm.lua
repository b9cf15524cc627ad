-- Proves exp, log, log10, pow (and ^), cosh, sinh and tanh give C's
-- results: exp near its overflow, log of subnormals, log10 of powers of
-- ten exactly (the digit count floor(log10(x)) + 1), powers with a base
-- near 1 and a large exponent, special values and the signs of NaNs, and
-- the hyperbolic functions near their overflow.
local nan = 0 / 0
print("exp near overflow", math.exp(709.7), math.exp(709.78), math.exp(709.79), math.exp(-745.1), math.exp(-746))
print("exp", math.exp(1), math.exp(-1), math.exp(0.5), math.exp(100), math.exp(-100), math.exp(1e-10))
print("log of subnormals", math.log(1e-310), math.log(4.9e-324), math.log(2.2250738585072014e-308), math.log10(1e-310))
print("log", math.log(3), math.log(10), math.log(0.1), math.log(1e300), math.log(2^-1022))
local exact, digits = 0, {}
for n = -307, 308 do
  if math.log10(tonumber("1e" .. n)) == n then exact = exact + 1 end
end
print("log10 of 1en exact", exact)
for _, x in ipairs({ 9, 10, 99, 100, 999, 1000, 99999, 1e5, 1e15, 1e15 - 1, 123456789 }) do
  digits[#digits + 1] = math.floor(math.log10(x)) + 1
end
print("digit counts", unpack(digits))
print("log10", math.log10(2), math.log10(0.001), math.log10(7), math.log10(1e-5))
print("pow near 1", 1.0001 ^ 10000, 0.9999 ^ 20000, 1.000001 ^ 1e6, math.pow(1.0001, 10000))
print("pow", 79.44 ^ 7, 2 ^ 0.5, 10 ^ -5, 3 ^ 40, 1.5 ^ -3, 2 ^ 1023, 2 ^ 1024, 2 ^ -1074, 2 ^ -1075)
local x = 1.0001
print("pow at run time", x ^ 10000, (x + 1) ^ 60.5, (x * 10) ^ -23)
local powers = 0
for n = -22, 22 do
  if 10 ^ n == tonumber("1e" .. n) then powers = powers + 1 end
end
print("10^n equals 1en", powers)
print("pow of negatives", (-2) ^ 3, (-2) ^ 4, (-2) ^ -1, (-8) ^ (1 / 3), math.pow(-8, 1 / 3))
print("pow specials", 0 ^ -1, (-0) ^ -1, (-0) ^ 3, (-0) ^ 0.5, (1 / 0) ^ -2, (-1 / 0) ^ 3, (-1 / 0) ^ 0.5, 1 ^ nan, nan ^ 0)
print("pow of NaN", nan ^ 3, (-nan) ^ 3, nan ^ 0.5, math.pow(nan, 1), 2 ^ nan, (-1) ^ (1 / 0), 0.5 ^ (1 / 0))
print("cosh", math.cosh(0), math.cosh(1e-20), math.cosh(0.3), math.cosh(1), math.cosh(21.5), math.cosh(30), math.cosh(710), math.cosh(711), math.cosh(-710.4))
print("sinh", math.sinh(1e-30), math.sinh(0.3), math.sinh(-2), math.sinh(22.5), math.sinh(710), math.sinh(-710.4), math.sinh(711))
print("tanh", math.tanh(0), math.tanh(-0), math.tanh(1e-20), math.tanh(0.5), math.tanh(-3), math.tanh(22), math.tanh(1 / 0), math.tanh(-1 / 0))
local s = 0
for i = 1, 200 do
  local v = i * 0.37
  s = s + math.exp(-v / 50) + math.log(v) + math.log10(v) + v ^ 1.7 + math.cosh(v / 40) + math.sinh(v / 45) + math.tanh(v / 30)
end
print("sum over a range", s)
