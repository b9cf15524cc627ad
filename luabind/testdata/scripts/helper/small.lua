-- helper/small.lua: an onCreate with a little work to do.
return {
  onCreate = function(self, ctx)
    local n = 0
    for i = 1, 20000 do n = n + i end
    self.n = n
  end,
}
