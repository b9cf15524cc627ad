-- messages/line_operand.lua: local x = a +\n b.c.d with b.c nil fails on
-- the second line, where b.c is indexed.
-- want: 8: attempt to index a nil value (field 'c')
return {
  onCreate = function(self, ctx)
    local a, b = 1, {}
    local x = a +
      b.c.d
    print(x)
  end,
}
