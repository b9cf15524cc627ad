-- hostile/recursion.lua: unbounded recursion.
return {
  onUpdate = function(self, ctx)
    local function deeper(n) return 1 + deeper(n + 1) end
    deeper(1)
  end,
}
