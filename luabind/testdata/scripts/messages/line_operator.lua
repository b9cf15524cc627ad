-- messages/line_operator.lua: an arithmetic over several lines fails at
-- the line of its operator, not where the expression starts.
-- want: 8: attempt to perform arithmetic on a nil value (field 'sped')
return {
  onCreate = function(self, ctx)
    local dt = 0.5
    self.x = (self.x or 0)
      + self.sped * dt
  end,
}
