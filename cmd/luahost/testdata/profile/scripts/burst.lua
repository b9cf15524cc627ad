-- A burst of 20 spawns in frame 2 and of their 20 kills in frame 4: the
-- profile marks each with an instant event ("spawns", "kills"), and
-- frame 3 shows the 20 minions as one event of 20 calls.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 2 then
      self.minions = {}
      for i = 1, 20 do
        self.minions[i] = ctx.spawn({ scripts = { "minion" } })
      end
    elseif ctx.frame == 4 then
      for _, m in ipairs(self.minions) do m:kill() end
    end
  end,
}
