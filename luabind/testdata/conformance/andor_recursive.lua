-- Proves a recursive tree search that reassigns its result local with
-- and/or over child lookups finds what Lua 5.1 finds.
local tree = {name = "root", kids = {{name = "a", kids = {{name = "a1"}}}, {name = "b"}}}
local function find(node, name)
  if node.name == name then return node end
  local found = nil
  for _, kid in ipairs(node.kids or {}) do
    found = found or find(kid, name)
  end
  return found
end
print("found a1", find(tree, "a1") and find(tree, "a1").name)
print("found b", find(tree, "b") and find(tree, "b").name)
print("missing", find(tree, "zz"))
local function depthOf(node, name, d)
  d = d or 0
  if node.name == name then return d end
  local r = nil
  for _, kid in ipairs(node.kids or {}) do
    r = r or depthOf(kid, name, d + 1)
  end
  return r
end
print("depths", depthOf(tree, "a1"), depthOf(tree, "b"), depthOf(tree, "q"))
