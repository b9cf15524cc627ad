-- messages/arith_unary.lua: negating a nil local names the local.
-- want: 6: attempt to perform arithmetic on a nil value (local 'speed')
return {
  onCreate = function(self, ctx)
    local speed
    self.v = -speed
  end,
}
