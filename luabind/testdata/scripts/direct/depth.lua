-- Calls the registered probe() from Lua recursion 1, 10, 100 and 1,000
-- deep, in onCreate: the direct call's depth (its call stack's frames)
-- must be the depth stackFull reads.
local function down(n)
  if n == 0 then return probe() end
  return (down(n - 1))
end
return {
  onCreate = function(self, ctx)
    for _, n in ipairs({ 1, 10, 100, 1000 }) do down(n) end
  end,
}
