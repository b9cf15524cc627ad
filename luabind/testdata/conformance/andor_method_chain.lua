-- Proves and/or over method calls and chained fields of objects assigned
-- to existing locals, as in entity code (target lookups, optional parts).
local Entity = {}
Entity.__index = Entity
function Entity.new(name, parent) return setmetatable({name = name, parent = parent}, Entity) end
function Entity:getParent() return self.parent end
function Entity:getName() return self.name end
local root = Entity.new("root")
local child = Entity.new("child", root)
local p = "old"
p = child:getParent() and child:getParent():getName()
print("parent name", p)
p = "old"
p = root:getParent() and root:getParent():getName()
print("no parent", p)
local cur, names = child, {}
while cur do
  names[#names + 1] = cur:getName()
  cur = cur.parent and cur:getParent()
end
print("ancestors", table.concat(names, "<"))
local target = "old"
target = root.parent and root.parent.parent or root.parent
print("or of nils", target)
