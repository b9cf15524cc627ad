-- Proves string literal escapes and long strings read as in Lua 5.1:
-- decimal escapes, the named escapes, newline after [[, level-n brackets.
print("decimal escapes", ("\65\066\0673"):byte(1, -1))
print("nul", #"a\0b", ("a\0b"):byte(2))
print("named", ("\a\b\f\n\r\t\v\\\"\'"):byte(1, -1))
print("escaped newline", "a\
b" == "a\nb")
print("long string", [[
first line]], [==[with ]] inside]==])
print("long string levels", [=[a]=], [===[b]=]c]===])
print("unknown escape", "\q" == "q", "\z" == "z")
print("escape max", #"\255\0001", ("\0001"):byte(1, -1))
