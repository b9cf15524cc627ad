-- A small onCreate with a little work: the nested callback of nested_boss.
return {
  onCreate = function(self, ctx)
    local n = 0
    for i = 1, 20000 do n = n + i end
    self.n = n
  end,
}
