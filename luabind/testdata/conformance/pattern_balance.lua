-- Proves %b matches balanced pairs, and %b without both delimiters is
-- Lua 5.1's "unbalanced pattern" error (also through find, gsub, match).
print("balanced", ("f(a(b)c) d"):match("%b()"))
print("brackets", ("x[1][2]"):gsub("%b[]", "#"))
print("same delimiters", ("'a' 'b'"):match("%b''"))
print("unclosed", ("(a(b)"):match("%b()"))
print("no delimiters", pcall(function() return string.find("abc", "%b") end))
print("one delimiter", pcall(function() return string.match("abc", "%b(") end))
print("gsub", pcall(function() return string.gsub("abc", "x%b", "") end))
print("from Lua", pcall(function() return ("abc"):find("%b") end))
