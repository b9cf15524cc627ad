-- Proves a backslash before a line end of two characters (\r\n, \n\r)
-- in a quoted string is one newline, as Lua 5.1 reads it: a script saved
-- with Windows line ends failed to compile; long strings and comments
-- read every line end as one.
print("escaped crlf", pcall(function() return #loadstring("return 'a\\\r\nb'")() end))
print("escaped lfcr", pcall(function() return #loadstring("return 'a\\\n\rb'")() end))
print("escaped cr", pcall(function() return #loadstring("return 'a\\\rb'")() end))
print("long crlf", #loadstring("return [[a\r\nb]]")())
print("long lfcr", #loadstring("return [[a\n\rb]]")())
print("long cr", #loadstring("return [[a\rb]]")())
print("long leading crlf", #loadstring("return [[\r\nab]]")())
print("lines crlf", select(2, pcall(loadstring("local x = 1\r\nlocal y = \r\n\r\n nil + 1"))))
print("comment crlf", #loadstring("--[[a\r\nb]] return 'ok'")())
print("line after an escaped crlf", select(2, pcall(loadstring("local s = 'a\\\r\nb'\r\nreturn s .. nil + 1"))))
