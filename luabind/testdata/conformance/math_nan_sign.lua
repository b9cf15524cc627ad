-- The sign of a NaN from the math library, as print shows it: an
-- argument that is NaN comes back with its sign; a domain error gives
-- C's NaN for that function ("-nan" on x86, "nan" for acos, asin, log10).
local inf = 1/0
local z = 0
local neg, pos = z/z, -(z/z)
print(neg, pos)
print(math.log(-1), math.log(-inf), math.log10(-1), math.log10(-inf))
print(math.acos(2), math.acos(-2), math.asin(2), math.asin(-2))
print(math.fmod(inf, 1), math.fmod(1, 0), math.fmod(-1, 0), math.mod(1, 0))
print(math.sqrt(-1), math.cos(inf), math.sin(inf), math.tan(inf))
print(math.pow(-8, 1/3), math.pow(-8, 0.5))
for _, n in ipairs({neg, pos}) do
  print(math.exp(n), math.log(n), math.log10(n), math.acos(n), math.sqrt(n),
    math.cosh(n), math.tanh(n), math.cos(n), math.atan(n), math.floor(n), math.ceil(n))
  print(math.atan2(n, 1), math.atan2(1, n), math.pow(n, 2), math.pow(2, n),
    math.fmod(n, 1), math.fmod(1, n), math.deg(n), math.rad(n), math.abs(n))
end
print(math.pow(n or 1, 0), math.pow(1, neg))
