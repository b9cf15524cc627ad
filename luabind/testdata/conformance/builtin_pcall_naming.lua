-- Proves the argument errors of a library function called straight from
-- pcall, as Lua 5.1 words them: no position, the function named '?';
-- called from Lua code, named as the call site names it.
print("string.rep", pcall(string.rep, {}, 2))
print("string.format", pcall(string.format))
print("select", pcall(select, "x", 1))
print("from Lua code", pcall(function() return string.rep({}, 2) end))
print("tonumber", pcall(tonumber, "1", 99))
print("table.insert", pcall(table.insert))
print("coroutine.wrap", pcall(coroutine.wrap, print))
print("require", pcall(require))
