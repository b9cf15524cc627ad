-- messages/index_unnamed.lua: a value computed on a branch (a or b) has
-- no name: the parenthesis is left out, as in reference Lua.
-- want: 6: attempt to index a nil value
return {
  onCreate = function(self, ctx)
    print((self.a or self.b).x)
  end,
}
