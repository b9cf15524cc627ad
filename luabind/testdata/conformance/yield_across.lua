-- Proves what Lua 5.1 allows and refuses around yield: yielding from
-- nested Lua calls works; yielding across pcall, a metamethod, an
-- iterator called by a Go function (table.sort's comparator, gsub's
-- callback) is a clean error.
local co = coroutine.create(function()
  local function deep(n) if n == 0 then coroutine.yield("deep") return "back" end return deep(n - 1) end
  return deep(10)
end)
print("yield from nested calls", coroutine.resume(co))
print("resume after nested yield", coroutine.resume(co))
local viaPcall = coroutine.create(function() return pcall(coroutine.yield, 1) end)
print("yield across pcall", coroutine.resume(viaPcall))
local viaMeta = coroutine.create(function()
  local t = setmetatable({}, {__index = function() return coroutine.yield("meta") end})
  return t.x
end)
print("yield across metamethod", pcall(function() return (coroutine.resume(viaMeta)) end))
local viaSort = coroutine.create(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)
print("yield across sort", pcall(function() return (coroutine.resume(viaSort)) end))
local viaGsub = coroutine.create(function()
  return (string.gsub("abc", "%w", function(c) coroutine.yield(c) return c end))
end)
print("yield across gsub", pcall(function() return (coroutine.resume(viaGsub)) end))
print("coroutine still usable", coroutine.resume(coroutine.create(function() return "fine" end)))
