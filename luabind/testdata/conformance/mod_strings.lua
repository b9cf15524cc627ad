-- Proves % converts numeric strings as Lua 5.1 does and uses the floored
-- formula for them too.
print("string operands", "10" % 3, 10 % "3", "7.5" % "2")
print("string tenth", "5" % "0.1", "1" % 0.1)
print("spaced", " 10 " % 4, "0x10" % 5)
print("negative strings", "-7" % 3, "7" % "-3")
print("bad string", pcall(function() return "abc" % 2 end) == false)
