-- Proves class-library mixins: functions copied into a class, included
-- hooks, and method lookup order between the class, its mixins and its
-- superclass through __index tables.
local function include(class, mixin)
  for k, v in pairs(mixin) do if k ~= "included" then class[k] = v end end
  if mixin.included then mixin.included(class) end
  return class
end
local Base = {}
Base.__index = Base
function Base:hello() return "base hello" end
function Base:who() return "base" end
local Cls = setmetatable({}, {__index = Base})
Cls.__index = Cls
local HasName = {name = function(self) return "name:" .. self:who() end, included = function(c) c.tagged = true end}
include(Cls, HasName)
function Cls:who() return "cls" end
local o = setmetatable({}, Cls)
print("mixin method", o:name(), o:hello(), Cls.tagged)
print("lookup order", rawget(Cls, "hello"), rawget(Cls, "name") ~= nil)
