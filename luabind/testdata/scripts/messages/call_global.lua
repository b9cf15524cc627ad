-- messages/call_global.lua: calling a global that does not exist names it.
-- want: 5: attempt to call a nil value (global 'spawnEnemy')
return {
  onCreate = function(self, ctx)
    spawnEnemy("orc", 3)
  end,
}
