-- Proves load and loadstring refuse what Lua 5.1 refuses, in its words: a
-- call whose "(" starts a new line (ambiguous syntax), a first line that
-- starts with '#' (only a file's is left out), a byte above 127 quoted
-- as it is.
print("call on a new line", loadstring("local a = f\n(g)()"))
print("method call on a new line", loadstring("x = a:b\n(1)"))
print("return of a call on a new line", loadstring("return f\n(1)"))
print("arguments on the next line", type(loadstring("local a = f(\ng)")))
print("string argument on the next line", type(loadstring("x = a\n's'")))
print("table argument on the next line", type(loadstring("x = a\n{1}")))
print("field on a later line", type(loadstring("x = f\n\n.y(1)")))
print("shebang", loadstring("#!/usr/bin/lua\nreturn 1"))
print("hash", loadstring("#x"))
print("high byte", loadstring("x = \200"))
print("high byte name", loadstring("local \200 = 1"))
