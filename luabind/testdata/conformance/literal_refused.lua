-- Proves literals that Lua 5.1 refuses are syntax errors with 5.1's
-- message: decimal escapes above 255, nested [[ in a long string or
-- comment, malformed numbers, a hex fraction.
-- Messages are compared with the quotes around <eof> and <name> taken
-- off: luahost writes them unquoted on purpose (syntax_quoting.lua).
local function try(src) return (select(2, loadstring(src)):gsub("'(<%a+>)'", "%1")) end
print("hex fraction", try("return 0x1.8"))
print("escape 256", try('return "\\256"'))
print("escape 999", try('return "\\999"'))
print("escape 255", loadstring('return "\\255"')():byte())
print("nested long string", try("return [[ a [[ b ]]"))
print("nested long comment", try("--[[ a [[ b ]]\nreturn 1"))
print("malformed", try("return 1e"), try("return 3..2"))
print("letters after number", try("return 12abc"))
print("double dot number", try("return 1.2.3"))
