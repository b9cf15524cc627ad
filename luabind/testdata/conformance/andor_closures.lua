-- Proves and/or whose operands are function calls with closures, or that
-- produce functions, reassign locals as in Lua 5.1.
local calls = 0
local function counted(v) calls = calls + 1 return v end
local x = "old"
x = counted(nil) and counted(1)
print("short circuit", x, calls)
x = "old"
x = counted(false) or counted(nil)
print("or both", x, calls)
local handler = "old"
local handlers = {}
handler = handlers.click and function() return "clicked" end
print("function operand", handler)
handlers.click = true
handler = handlers.click and function() return "clicked" end
print("function taken", type(handler), handler())
