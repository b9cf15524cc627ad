-- A global read that nothing sets.
return {
  onUpdate = function(self, ctx, dt)
    print(GameState.level)
  end,
}
-- want: 4:11: warning: undefined global 'GameState'
