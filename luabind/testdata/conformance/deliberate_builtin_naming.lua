-- Proves the argument errors of a library function called straight from
-- pcall, which luahost words on purpose as its guide documents: the
-- function named as Lua 5.4 names it ('string.rep', not '?') and the
-- position of the Lua code that called pcall.
print("string.rep", pcall(string.rep, {}, 2))
print("string.format", pcall(string.format))
print("select", pcall(select, "x", 1))
print("from Lua code", pcall(function() return string.rep({}, 2) end))
