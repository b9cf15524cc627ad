-- messages/index_field.lua: assigning into a nil field names that field
-- (target), not the key being written (hp).
-- want: 6: attempt to index a nil value (field 'target')
return {
  onCreate = function(self, ctx)
    self.target.hp = 1
  end,
}
