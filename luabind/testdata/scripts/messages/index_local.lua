-- messages/index_local.lua: a method call on a nil local names the local
--, not the method being read.
-- want: 7: attempt to index a nil value (local 'boss')
return {
  onCreate = function(self, ctx)
    local boss = ctx.find("boss")
    boss:position()
  end,
}
