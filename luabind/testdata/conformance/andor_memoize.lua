-- Proves a memoize-style cache keyed by a tree of argument tables returns
-- each call's own result: the walk `node = node.children and
-- node.children[arg]` must reach nil for arguments never seen.
local function memoize(fn)
  local root = {children = {}}
  local calls = 0
  return function(...)
    local node = root
    local n = select("#", ...)
    for i = 1, n do
      local arg = select(i, ...)
      node = node.children and node.children[arg]
      if not node then break end
    end
    if node and node.results then return unpack(node.results) end
    calls = calls + 1
    local results = {fn(...)}
    node = root
    for i = 1, n do
      local arg = select(i, ...)
      node.children = node.children or {}
      node.children[arg] = node.children[arg] or {}
      node = node.children[arg]
    end
    node.results = results
    return unpack(results)
  end, function() return calls end
end
local add, count = memoize(function(a, b) return a + b end)
print("first", add(1, 2))
print("other args", add(2, 3))
print("cached", add(1, 2))
print("third", add(1, 5))
print("calls", count())
local concat, c2 = memoize(function(...) return table.concat({...}, "-") end)
print("varying arity", concat("a"), concat("a", "b"), concat("a"), concat("b", "a"))
print("calls 2", c2())
