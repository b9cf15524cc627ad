-- Proves the deliberate differences of luahost's syntax messages from
-- Lua 5.1's, each kept on purpose (see the fidelity notes of the Lua API
-- guide): <eof> and <name> unquoted; an expression cut off by the end of
-- the source names the bracket still open; an unfinished long string or
-- comment names the line it starts at.
print("eof quoted", select(2, loadstring("x = ")))
print("name quoted", select(2, loadstring("local")))
print("open bracket at eof", select(2, loadstring("f(a,")))
print("open index at eof", select(2, loadstring("x = t[")))
print("long string start", select(2, loadstring("x = [[abc")))
print("long comment start", select(2, loadstring("--[[ never closed")))
