-- Proves the deterministic math functions and constants (floor, ceil,
-- abs, min/max, fmod, modf, sqrt, pow, exp, log, log10, frexp, ldexp,
-- trigonometry, deg/rad, huge, pi), printed through %.10g so that the
-- last bit of a C and a Go libm cannot matter.
local function f(x) return string.format("%.10g", x) end
print("floor", math.floor(3.7), math.floor(-3.7), math.floor(5))
print("ceil", math.ceil(3.2), math.ceil(-3.2), math.ceil(5))
print("abs", math.abs(-4), math.abs(4), math.abs(-0.5))
print("min max", math.min(3, 1, 2), math.max(3, 1, 2), math.min(5), math.max(-1, -5))
print("min max mixed", math.min(1.5, 2), math.max(1, 2.5))
print("fmod", math.fmod(7, 3), math.fmod(-7, 3), math.fmod(7, -3), f(math.fmod(5.5, 2)))
print("modf", math.modf(3.7))
print("modf negative", math.modf(-3.7))
print("modf integer", math.modf(5))
print("sqrt", math.sqrt(16), f(math.sqrt(2)))
print("pow", math.pow(2, 10), f(math.pow(2, 0.5)))
print("exp log", f(math.exp(1)), f(math.log(10)), math.log(1))
print("log10", math.log10(1000), math.log10(1))
print("frexp", math.frexp(8))
print("frexp fraction", math.frexp(0.75))
print("frexp zero", math.frexp(0))
print("ldexp", math.ldexp(0.5, 4), math.ldexp(1, -1))
print("trig", f(math.sin(1)), f(math.cos(1)), f(math.tan(1)))
print("trig zero", math.sin(0), math.cos(0), math.tan(0))
print("inverse trig", f(math.asin(0.5)), f(math.acos(0.5)), f(math.atan(1)))
print("atan2", f(math.atan2(1, 1)), f(math.atan2(-1, -1)), math.atan2(0, 1))
print("hyperbolic", f(math.sinh(1)), f(math.cosh(1)), f(math.tanh(1)))
print("deg rad", math.deg(math.pi), f(math.rad(180)))
print("pi", f(math.pi))
print("huge is infinite", math.huge > 1e308, -math.huge < -1e308, math.huge == math.huge + 1)
print("huge compares", math.huge == 1 / 0, math.huge > 2 ^ 1024 - 1)
print("huge format", string.format("%.1f", math.huge) == string.format("%.1f", 1 / 0))
print("floor of huge", math.floor(math.huge) == math.huge)
print("min with huge", math.min(math.huge, 5), math.max(-math.huge, -5))
print("string args", math.floor("3.5"), math.abs("-2"))
print("bad arg", (pcall(math.floor, "x")), (pcall(math.floor)))
print("random exists", type(math.random), type(math.randomseed))
print("random range", (function()
  for i = 1, 100 do
    local r = math.random(3, 5)
    if r < 3 or r > 5 or r ~= math.floor(r) then return false end
  end
  return true
end)())
print("random unit", (function()
  for i = 1, 100 do local r = math.random() if r < 0 or r >= 1 then return false end end
  return true
end)())
print("random empty interval", (pcall(math.random, 0)))
