-- Proves the everyday tree walk `node = node.children and
-- node.children[k]` ends at nil when a level is missing, and finds the
-- leaf when every level exists.
local tree = {children = {a = {children = {b = {value = "leaf"}}}}}
local function walk(path)
  local node = tree
  for i = 1, #path do
    node = node.children and node.children[path[i]]
    if not node then return "missing at " .. i end
  end
  return node.value
end
print("found", walk({"a", "b"}))
print("missing first", walk({"x"}))
print("missing deeper", walk({"a", "b", "c"}))
print("missing middle", walk({"a", "z", "c"}))
local function depth(path)
  local node, d = tree, 0
  while node do
    d = d + 1
    node = node.children and node.children[path[d]]
  end
  return d
end
print("depth", depth({"a", "b"}), depth({}), depth({"q"}))
local cur = tree
cur = cur.children and cur.children.a
cur = cur.children and cur.children.b
cur = cur.children and cur.children.c
print("stepwise", cur)
