-- messages/arg_string_method.lua: a library function called as a method
-- (s:rep) does not count the string either.
-- want: 7: bad argument #1 to 'rep' (number expected, got string)
return {
  onCreate = function(self, ctx)
    local s = "ab"
    print(s:rep("x"))
  end,
}
