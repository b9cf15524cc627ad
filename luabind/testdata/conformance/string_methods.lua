-- Proves strings' methods through their metatable: s:upper(),
-- ("%d"):format(n), ("x"):rep(3), #s, getmetatable("").__index being the
-- string table, string library changes seen by methods, and the "%s" % t
-- idiom working once a script installs __mod itself.
local s = "Hello"
print("method upper", s:upper(), ("abc"):upper())
print("method format", ("%d-%s"):format(7, "x"))
print("method chain", ("  trim  "):match("^%s*(.-)%s*$"):upper():rep(2, "-"))
print("method len", ("abc"):len(), #"abc")
print("method on number needs parens", (pcall(function() return (5):rep(2) end)))
print("metatable index", getmetatable("").__index == string)
print("metatable is shared", getmetatable("a") == getmetatable("b"))
string.shout = function(x) return x:upper() .. "!" end
print("added method", ("hey"):shout())
local mt = getmetatable("")
print("mod before install", (pcall(function() return "%s" % {1} end)))
mt.__mod = function(fmt, args)
  if type(args) == "table" then return fmt:format(unpack(args)) end
  return fmt:format(args)
end
print("mod idiom table", "%s and %s" % {"a", "b"})
print("mod idiom single", "%05.1f" % 3.14159)
print("string arithmetic still numeric", "10" % 3, "10" + 1)
print("indexing a string by number", ("abc")[2])
print("method byte char", ("A"):byte(), string.char(("A"):byte() + 1))
print("string.len via method on literal", ("\0\0"):len())
print("sub via method", ("hello"):sub(2, -2))
print("gsub via method", ("a,b,c"):gsub(",", ";"))
print("find via method", ("hello"):find("l"))
print("reverse via method", ("abc"):reverse())
print("tostring of method", type(("x").upper))
