-- messages/index_integer.lua: indexing the nil element of a list by a
-- literal integer says so, in reference Lua 5.4's words.
-- want: 7: attempt to index a nil value (field 'integer index')
return {
  onCreate = function(self, ctx)
    local waypoints = {}
    print(waypoints[1].x)
  end,
}
