-- Proves that load and loadstring return Lua 5.1's own syntax messages:
-- <eof> and <name> quoted, no bracket named for an expression cut off by
-- the end of the source, no start line for an unfinished long string or
-- comment, no hint for an operator of another language. A script's own
-- compile errors say more (the Lua API guide, section 10).
print("eof quoted", select(2, loadstring("x = ")))
print("name quoted", select(2, loadstring("local")))
print("open bracket at eof", select(2, loadstring("f(a,")))
print("open index at eof", select(2, loadstring("x = t[")))
print("long string start", select(2, loadstring("x = [[abc")))
print("long comment start", select(2, loadstring("--[[ never closed")))
print("foreign op", select(2, loadstring("x += 1")))
print("floor division", select(2, loadstring("return 7 // 2")))
print("not equal", select(2, loadstring("if a != b then end")))
print("unfinished string", select(2, loadstring("x = 'abc")))
print("unclosed block", select(2, loadstring("if x then\n  y()\n")))
print("bad name", select(2, loadstring("local function (x) end")))
local parts = {"x = ", "= 1"}
print("load", select(2, load(function() return table.remove(parts, 1) end, "=chunk")))
