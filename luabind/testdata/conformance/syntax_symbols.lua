-- Proves loadstring's messages for misplaced symbols use Lua 5.1's words
-- and quote the token: unexpected symbol, '=' expected, 'then' expected.
-- Messages are compared with the quotes around <eof> and <name> taken
-- off: luahost writes them unquoted on purpose (syntax_quoting.lua).
local function try(src) return (select(2, loadstring(src)):gsub("'(<%a+>)'", "%1")) end
print("double equals", try("x = = 1"))
print("missing then", try("if x end"))
print("missing do", try("while x end"))
print("missing in", try("for k v in pairs(t) do end"))
print("bad for", try("for 1 do end"))
print("expression statement", try("x"))
print("number statement", try("1 + 1"))
print("stray paren", try("x = (1"))
print("close brace", try("x = }"))
print("keyword as name", try("local end = 1"))
print("method without call", try("a:b"))
print("assign to call", try("f() = 1"))
