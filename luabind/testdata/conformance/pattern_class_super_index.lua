-- Proves classic-style classes: extend copies metamethods, __index on
-- the class table walks the chain, is() checks ancestry, and __call
-- builds instances, all as in Lua 5.1.
local Object = {}
Object.__index = Object
function Object:new() end
function Object:extend()
  local cls = {}
  for k, v in pairs(self) do if k:find("__") == 1 then cls[k] = v end end
  cls.__index = cls
  cls.super = self
  return setmetatable(cls, self)
end
function Object:is(T)
  local mt = getmetatable(self)
  while mt do if mt == T then return true end mt = getmetatable(mt) end
  return false
end
function Object:__tostring() return "Object" end
function Object:__call(...) local o = setmetatable({}, self) o:new(...) return o end
local Point = Object:extend()
function Point:new(x, y) self.x, self.y = x or 0, y or 0 end
function Point:__tostring() return "Point(" .. self.x .. "," .. self.y .. ")" end
local Rect = Point:extend()
function Rect:new(x, y, w, h) Rect.super.new(self, x, y) self.w, self.h = w or 0, h or 0 end
local r = Rect(1, 2, 3, 4)
print("fields", r.x, r.y, r.w, r.h)
print("is", r:is(Rect), r:is(Point), r:is(Object), Point(0, 0):is(Rect))
print("tostring inherited", tostring(Point(5, 6)), tostring(r))
