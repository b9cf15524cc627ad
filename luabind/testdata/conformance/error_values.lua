-- Proves error's values through pcall: levels on tables and numbers
-- (no position added to non-strings), rethrowing a caught message keeps
-- it, and error() with no value gives nil.
print("table level 2", type(select(2, pcall(function() error({}, 2) end))))
print("number level 1", select(2, pcall(function() error(7) end)))
print("boolean", select(2, pcall(function() error(false) end)))
print("no value", select(2, pcall(function() error() end)))
local ok, msg = pcall(function() error("first") end)
local ok2, msg2 = pcall(function() error(msg, 0) end)
print("rethrow", msg == msg2)
local ok3, msg3 = pcall(function() error(msg) end)
print("rethrow adds position", msg3 ~= msg)
print("string number", select(2, pcall(function() error("5", 0) end)))
