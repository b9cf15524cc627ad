-- messages/index_number.lua: indexing a number names its type and the
-- local holding it.
-- want: 7: attempt to index a number value (local 'n')
return {
  onCreate = function(self, ctx)
    local n = 5
    print(n.x)
  end,
}
