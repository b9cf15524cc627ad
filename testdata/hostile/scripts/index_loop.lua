-- An __index metamethod that indexes itself recurses without end: a stack
-- overflow error, not a crash.
return {
  onUpdate = function(self, ctx)
    local t = setmetatable({}, {
      __index = function(t, k) return t[k] end,
    })
    return t.x
  end,
}
