-- hostile/metarecursion.lua: unbounded recursion through a metamethod.
return {
  onUpdate = function(self, ctx)
    local t = setmetatable({}, { __index = function(t, k) return t[k .. "x"] end })
    return t.x
  end,
}
