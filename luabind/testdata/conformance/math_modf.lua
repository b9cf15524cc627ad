-- Proves math.modf returns the integral and fractional parts as Lua 5.1
-- does, also for infinities (inf and 0), negatives and NaN.
local inf = math.huge
print("positive", math.modf(3.7))
print("negative", math.modf(-3.7))
print("whole", math.modf(5))
print("inf", math.modf(inf))
print("minus inf", math.modf(-inf))
print("small", math.modf(0.25), math.modf(-0.25))
print("nan", math.modf(0 / 0))
print("count", select("#", math.modf(1.5)))
print("string arg", math.modf("2.5"))
