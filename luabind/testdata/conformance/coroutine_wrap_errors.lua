-- Proves an error raised through a coroutine.wrap function keeps the
-- position error() gave it and gains the caller's when Lua code called
-- the function, as Lua 5.1's luaL_where adds it: also when pcall, on the
-- line of the error, calls it.
local w = coroutine.wrap(function() error("same line") end) print("1", pcall(w))
local w2 = coroutine.wrap(function()
  error("other line")
end)
print("2", pcall(w2))
local w3 = coroutine.wrap(function() local w4 = coroutine.wrap(function() error("nested") end) w4() end) print("3", pcall(w3))
local w5 = coroutine.wrap(function() error({}) end) print("4", select("#", pcall(w5)), type(select(2, pcall(w5))))
local w6 = coroutine.wrap(function() return 1 end) w6() print("5", pcall(w6))
local w7 = coroutine.wrap(function() error("called from Lua") end)
print("6", pcall(function() w7() end))
