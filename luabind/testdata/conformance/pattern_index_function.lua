-- Proves __index and __newindex functions as class libraries use them:
-- computed properties, getters by naming convention, defaults, rawset
-- inside __newindex, and chains of __index functions and tables.
local Base = {}
Base.__index = function(t, k)
  local getter = rawget(Base, "get_" .. k)
  if getter then return getter(t) end
  return rawget(Base, k)
end
function Base.get_area(self) return self.w * self.h end
function Base.describe(self) return self.w .. "x" .. self.h end
local r = setmetatable({w = 2, h = 3}, Base)
print("computed", r.area, r:describe(), r.missing)
local log = {}
local watched = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k rawset(t, k, v * 2) end})
watched.a = 1
watched.a = 5
watched.b = 2
print("newindex", watched.a, watched.b, table.concat(log, ","))
local defaults = setmetatable({}, {__index = function(_, k) return "default " .. k end})
local layered = setmetatable({own = 1}, {__index = defaults})
print("layered", layered.own, layered.other)
local count = 0
local counting = setmetatable({}, {__index = function(t, k) count = count + 1 return nil end})
local x = counting.a or counting.b
print("misses", x, count)
