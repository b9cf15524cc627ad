-- Proves string.format's %c and %s treat NUL as Lua 5.1 does: each
-- conversion is C's sprintf cut at its first NUL, so %c of 0 adds nothing
-- and %s stops at a NUL, except a string of 100 bytes or more with no
-- precision, which is kept whole; %q quotes NUL as \000.
local c = string.format("%c", 0)
print("c zero", #c, c:byte())
print("c zero between", #string.format("a%cb", 0), string.format("a%cb", 0):byte(1, -1))
local s = string.format("%s", "a\0b")
print("s nul", #s, s:byte(1, -1))
print("s nul with text", #string.format("[%s]", "x\0y\0z"))
print("s nul width", #string.format("%5s", "a\0b"))
print("q nul", string.format("%q", "a\0b"))
print("c 255", string.format("%c", 255):byte())
print("c 256", string.format("%c", 256):byte())
local long = ("x"):rep(99) .. "\0" .. "tail"
print("s nul long", #string.format("%s", long), #string.format("%.99s", long), #string.format("%s", long:sub(2)))
print("nul in format", #string.format("a\0b"))
