-- Proves middleclass-style metatable chains: class tables with __index
-- pointing at the superclass, instance metatables copied from class
-- fields, super calls, isInstanceOf walks and tostring via __tostring.
local function class(name, super)
  local c = {name = name, super = super, static = {}, __instanceDict = {}}
  c.__instanceDict.__index = c.__instanceDict
  if super then
    setmetatable(c.__instanceDict, {__index = super.__instanceDict})
  end
  c.__instanceDict.class = c
  c.new = function(self, ...)
    local o = setmetatable({}, self.__instanceDict)
    if o.initialize then o:initialize(...) end
    return o
  end
  return setmetatable(c, {__index = super, __tostring = function() return "class " .. name end, __call = function(self, ...) return self:new(...) end})
end
local Animal = class("Animal")
function Animal.__instanceDict:initialize(n) self.n = n end
function Animal.__instanceDict:speak() return self.n .. " makes a sound" end
local Dog = class("Dog", Animal)
function Dog.__instanceDict:speak() return Animal.__instanceDict.speak(self) .. ": woof" end
local d = Dog("rex")
print("super call", d:speak())
print("class", tostring(Dog), tostring(d.class), d.class == Dog)
local function isInstanceOf(o, c)
  local k = o.class
  while k do if k == c then return true end k = k.super end
  return false
end
print("instance of", isInstanceOf(d, Dog), isInstanceOf(d, Animal), isInstanceOf(Animal("a"), Dog))
print("inherited lookup", d.initialize == Animal.__instanceDict.initialize)
print("rawget", rawget(d, "speak"), rawget(Dog.__instanceDict, "initialize"))
