-- messages/arith_string_pow.lua: ^ on a string that is not a number, an
-- operator luahost compiles into a call of its own, names the local that
-- held it, as the other operators do.
-- want: 8: attempt to perform arithmetic on a string value (local 'label')
return {
  onCreate = function(self, ctx)
    local label = "ten"
    self.total = label ^ 3
  end,
}
