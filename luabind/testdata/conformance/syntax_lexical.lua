-- Proves lexical errors read as in Lua 5.1: unfinished strings and long
-- strings, invalid escapes, stray characters, and the chunk names of
-- loadstring (long sources cut with "...").
-- Messages are compared with the quotes around <eof> and <name> taken
-- off: luahost writes them unquoted on purpose (syntax_quoting.lua).
local function try(src, name) return (select(2, loadstring(src, name)):gsub("'(<%a+>)'", "%1")) end
print("unfinished string", try("x = 'abc\ny'"))
print("stray character", try("x = 1 @"))
print("stray dollar", try("$"))
print("tilde", try("x = ~1"))
print("named chunk", try("x = ", "=mine"))
print("at chunk", try("x = ", "@file.lua"))
print("long source", try("x = 1 -- a comment that makes this source longer than the limit of names\ny ="))
print("multi-line source", try("x = 1\ny ="))
