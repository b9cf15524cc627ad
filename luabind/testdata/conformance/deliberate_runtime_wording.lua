-- Proves the runtime errors luahost words as Lua 5.4 does, on purpose
-- (the parenthesis names the value that was nil or of the wrong type):
-- each check differs from Lua 5.1's wording and is listed as deliberate.
local function msg(f) return select(2, pcall(f)) end
print("index local", msg(function() local boss; return boss.x end))
print("index global", msg(function() return GameState.level end))
print("index field", msg(function() local self = {} self.target.hp = 1 end))
print("call method", msg(function() local e = {} e:setPos(1) end))
print("arith field", msg(function() local self = {} return self.sped * 2 end))
print("concat local", msg(function() local name; return "hp: " .. name end))
print("mod local", msg(function() local count; return count % 2 end))
print("mod field", msg(function() local t = {} return 10 % t.step end))
