-- Proves math.random and math.randomseed take numeric strings, and
-- os.date a number as its format, as Lua 5.1 converts them (the numbers
-- drawn are the host's own, so only their agreement is checked).
math.randomseed("7")
local a = {math.random(1000), math.random("10", "20")}
math.randomseed(7)
local b = {math.random(1000), math.random(10, 20)}
print("same sequence", a[1] == b[1], a[2] == b[2])
print("in range", a[2] >= 10 and a[2] <= 20)
print("bounds from strings", math.random("1", "1"), math.random(" 1 "))
print("bad seed", pcall(function() math.randomseed("x") end) == false)
print("date number format", os.date(12, 0))
