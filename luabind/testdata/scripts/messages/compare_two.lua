-- messages/compare_two.lua: comparing two values of the same type that
-- has no order says so.
-- want: 6: attempt to compare two table values
return {
  onCreate = function(self, ctx)
    print({} < {})
  end,
}
