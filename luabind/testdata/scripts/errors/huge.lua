-- errors/huge.lua: error() with a 50 MB message.
return {
  onUpdate = function(self, ctx)
    local mb = string.rep("x", 1024 * 1024)
    local parts = {}
    for i = 1, 50 do parts[i] = mb end
    error(table.concat(parts))
  end,
}
