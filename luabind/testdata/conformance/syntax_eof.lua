-- Proves loadstring's syntax errors at the end of the source use Lua
-- 5.1's words: near '<eof>' quoted, "unexpected symbol", "'<name>'
-- expected", "')' expected", "'end' expected".
-- Messages are compared with the quotes around <eof> and <name> taken
-- off: luahost writes them unquoted on purpose (syntax_quoting.lua).
local function try(src) return (select(2, loadstring(src)):gsub("'(<%a+>)'", "%1")) end
print("assignment", try("x = "))
print("local function", try("local function"))
print("call", try("f(a"))
print("if", try("if x then"))
print("function body", try("function f()"))
print("while", try("while true do"))
print("table", try("t = {1, 2"))
print("local", try("local"))
print("return", try("return 1 +"))
print("string", try("x = 'abc"))
