-- messages/index_computed.lua: a field read with a computed key has no
-- name reference Lua could give it: '?'.
-- want: 8: attempt to index a nil value (field '?')
return {
  onCreate = function(self, ctx)
    local slots = {}
    local key = "head"
    print(slots[key].armor)
  end,
}
