-- Globals: one read but never assigned, one assigned only inside a
-- callback (a missing local), one assigned at the top level (fine).
Score = 0

return {
  onUpdate = function(self, ctx, dt)
    Score = Score + 1
    count = (count or 0) + 1
    print(GameState.level, prnt)
  end,
}
