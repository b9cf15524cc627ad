-- messages/overflow_meta.lua: an __index function that indexes itself
-- overflows the call stack through Go calls: still "stack overflow" at
-- its line.
-- want: 8: stack overflow
return {
  onCreate = function(self, ctx)
    local t = setmetatable({}, {
      __index = function(t, k) return t[k] end,
    })
    return t.x
  end,
}
