-- hostile/growth.lua: a table that grows without end.
return {
  onUpdate = function(self, ctx)
    local t = {}
    local i = 0
    while true do
      i = i + 1
      t[i] = { i }
    end
  end,
}
