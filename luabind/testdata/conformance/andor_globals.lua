-- Proves and/or over calls and fields assigned to globals and to fields
-- of globals give the falsy operand, as in Lua 5.1.
local function none() end
Config = {}
Value = "old"
Value = Config.missing and 1
print("global from field", Value)
Value = "old"
Value = none() and 1
print("global from call", Value)
Config.flag = "old"
Config.flag = Config.other and Config.other.flag
print("field of global", Config.flag)
Value = Config.a or Config.b or false
print("global or chain", Value)
