-- Proves where Lua 5.1 converts numeric strings and where it does not:
-- arithmetic and library arguments convert, comparison and table keys
-- do not.
print("arith", "3" + 4, "3" * "4", 10 / "4")
print("compare refuses", pcall(function() return "3" < 4 end) == false)
print("string compare", "10" < "9", "abc" < "abd")
local t = {}
t["1"] = "string key"
t[1] = "number key"
print("keys distinct", t["1"], t[1])
print("equality", "1" == 1, 1 == 1.0)
print("library converts", math.max("10", 9), ("x"):rep("2"))
