-- Proves math.modf, math.floor and math.fmod as rounding helpers use
-- them (truncation toward zero, sign of the fraction, whole floats).
local function trunc(x) local i = math.modf(x) return i end
local function frac(x) local _, f = math.modf(x) return f end
print("trunc", trunc(2.7), trunc(-2.7), trunc(0.2), trunc(-0.2))
print("frac", frac(2.75), frac(-2.75), frac(3))
print("round half", math.floor(2.5 + 0.5), math.floor(-2.5 + 0.5))
print("fmod signs", math.fmod(5.5, 2), math.fmod(-5.5, 2), math.fmod(5.5, -2))
print("modf huge", math.modf(2 ^ 60), math.modf(-2 ^ 60 - 0.5))
print("modf inf parts", math.modf(math.huge), math.modf(-math.huge))
