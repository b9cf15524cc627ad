-- messages/index_global.lua: indexing a global that was never set names the
-- global, not the key.
-- want: 6: attempt to index a nil value (global 'GameState')
return {
  onCreate = function(self, ctx)
    print(GameState.level)
  end,
}
