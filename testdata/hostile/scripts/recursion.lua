-- Unbounded recursion ends in a Lua error, not a Go stack overflow.
local function down(n)
  return down(n + 1) + 1
end

return {
  onUpdate = function(self, ctx)
    down(1)
  end,
}
