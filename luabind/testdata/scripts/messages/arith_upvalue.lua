-- messages/arith_upvalue.lua: arithmetic on a nil upvalue names it; the
-- operand on the left is a number, so the culprit is on the right.
-- want: 7: attempt to perform arithmetic on a nil value (upvalue 'bonus')
local bonus
return {
  onCreate = function(self, ctx)
    self.score = 10 + bonus
  end,
}
