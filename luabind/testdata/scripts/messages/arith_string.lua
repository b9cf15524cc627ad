-- messages/arith_string.lua: arithmetic on a string that is not a number
-- names the local that held it, though the strings' own metamethod
-- raised the error.
-- want: 8: attempt to perform arithmetic on a string value (local 'label')
return {
  onCreate = function(self, ctx)
    local label = "ten"
    self.total = label * 2
  end,
}
