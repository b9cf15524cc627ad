-- xpcall checks only its handler's presence; coroutine functions refuse
-- what is not a Lua function or a coroutine in Lua 5.1's words.
print(xpcall(nil, function(m) return "h: " .. m end))
print(xpcall(1, function(m) return "h: " .. m end))
print(xpcall(function() error("x") end, 1))
print(xpcall(function() return 1, 2 end, 1))
print(pcall(xpcall, function() return 1 end))
print(xpcall(setmetatable({}, {__call = function(_, a) return "called" end}), print))
print(pcall(coroutine.status, {}))
print(coroutine.status(coroutine.create(function() end)))
print(pcall(coroutine.create, print))
print(pcall(coroutine.wrap, 3))
print(pcall(coroutine.resume, "x"))
