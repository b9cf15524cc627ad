-- messages/index_boolean.lua: indexing a boolean field names the field.
-- want: 5: attempt to index a boolean value (field 'alive')
return {
  onCreate = function(self, ctx)
    self.alive.since = 3
  end,
  properties = { alive = true },
}
