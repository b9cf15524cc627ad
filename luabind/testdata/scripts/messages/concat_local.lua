-- messages/concat_local.lua: concatenating a nil local names the local.
-- want: 7: attempt to concatenate a nil value (local 'name')
return {
  onCreate = function(self, ctx)
    local name
    local hp = 3
    print("hp: " .. hp .. " of " .. name)
  end,
}
