-- messages/index_string.lua: assigning a field of a string names the
-- string's local.
-- want: 7: attempt to index a string value (local 'label')
return {
  onCreate = function(self, ctx)
    local label = "hero"
    label.color = "red"
  end,
}
