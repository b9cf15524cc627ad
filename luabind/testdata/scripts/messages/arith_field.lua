-- messages/arith_field.lua: arithmetic on a misspelt field names the
-- field that was nil.
-- want: 7: attempt to perform arithmetic on a nil value (field 'sped')
return {
  onCreate = function(self, ctx)
    local dt = 0.5
    self.x = self.x + self.sped * dt
  end,
  properties = { x = 1, speed = 2 },
}
