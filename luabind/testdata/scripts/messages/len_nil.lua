-- messages/len_nil.lua: the length of a nil field names the field.
-- want: 5: attempt to get length of a nil value (field 'items')
return {
  onCreate = function(self, ctx)
    print(#self.items)
  end,
}
