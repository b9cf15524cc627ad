-- Proves every math function converts numeric strings as Lua 5.1 reads
-- them (decimal "010" is ten, hex, exponents, surrounding spaces).
print("floor ceil", math.floor("010"), math.ceil(" 2.5 "), math.floor("0x1F"))
print("abs sqrt", math.abs("-010"), math.sqrt("1e2"))
print("max min", math.max("3", "10", 2), math.min("-1", "-010"))
print("pow exp", math.pow("2", "010"), math.exp("0"))
print("fmod mod", math.fmod("10", "3"), math.mod("-10", "3"))
print("modf", math.modf("-3.5"))
print("frexp ldexp", math.frexp("16"), math.ldexp("0.5", "010"))
print("deg rad", math.deg("0"), math.rad("0"))
print("trig", math.sin("0"), math.cos("0"), math.atan2("0", "1"))
print("log", math.log("1"), math.log10("100"))
print("bad", pcall(function() return math.floor("ten") end))
print("nil", pcall(function() return math.abs() end))
