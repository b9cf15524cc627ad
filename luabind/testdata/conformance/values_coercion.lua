-- numbers as text, coercions, comparisons, loops
print(1e15, 1e16, 2^53, 2^63, -2^63, 1e100, 123456789012345678)
print(0.1, 1/3, -1/3, 100/3, 1e-10, 5e-324, 1.7976931348623157e308)
print(3.0, -3.0, 3.5, 1e300*1e10, -0.0 == 0.0)
print(10 .. "", 1.5 .. "", 1e20 .. "", -0.0 .. "", 2^63 .. "")
print("10" + 1, "0x10" + 0, " 5 " * 2, "1e2" / 4, "-3" % 5, "2" ^ "3")
print(pcall(function() return "abc" + 1 end))
print(pcall(function() return {} .. "x" end))
print(1 < 2, "a" < "b", "Z" < "a", "" < " ", "abc" < "abd", "ab" < "abc")
print(pcall(function() return 1 < "2" end))
print(pcall(function() return {} < {} end))
print(1 == 1.0, "1" == 1, 0.1 + 0.2 == 0.3, math.huge == 1/0)
local n = 0
for i = 1, 2, 0.1 do n = n + 1 end
print(n)
n = 0
for i = 10, 1, -3 do n = n + i end
print(n)
for i = 1, 0 do print("never") end
for i = 1.5, 3 do print(i) end
print(pcall(function() for i = 1, 10, 0 do return "zero step runs" end end))
local t = {}
for i = 1, 3 do t[i] = function() return i end end
print(t[1](), t[2](), t[3]())
print(select('#', nil, nil), select('#'), select(2, 'a', 'b', 'c'))
print(select(-1, 'a', 'b', 'c'), select(-2, 'a', 'b', 'c'))
print(pcall(select, -4, 'a', 'b', 'c'))
print(unpack({1, nil, 3}))
print(unpack({1, 2, 3}, 2), unpack({1, 2, 3}, 2, 5))
print(unpack({}, 1, 0), (unpack({1, 2})))
print(table.concat({1, 2.5, "x"}, "-"), table.concat({}, "x"), table.concat({1, 2, 3}, ", ", 2, 3))
print(pcall(table.concat, {1, {}, 3}))
print(tostring(nil), tostring(true), tostring(12), tostring("x"))
print(type(print), type(nil), type({}), type("x"), type(2), type(true), type(coroutine.create(print and function() end)))
print(math.floor(-0.5), math.ceil(-0.5), math.floor(0.5), -7 / 2, math.floor(-7 / 2))
print(#"", #"abc", #{1, 2, nil}, #{nil, nil}, #{n = 1})
print(string.format("%5.1f %5.0f %.0f %.0f %.0f", 2.25, 2.5, 0.5, 1.5, 2.5))
print(string.format("%g %g %g %g %g", 1e-5, 123456, 1234567, 0.1, 100))
print(string.format("%.14g %.17g %.3g", 0.1, 0.1, 2/3))
print(string.format("%x %X %o", 3735928559, 48879, 511))
print(string.format("[%5s][%-5s][%05.1f]", "ab", "ab", 3.14159))
print(2^31, 2^32 + 0.5)
