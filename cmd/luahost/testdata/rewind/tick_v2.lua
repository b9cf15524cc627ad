-- Counts its frames by two: the code reloaded over scripts/tick.lua.
return {
  onUpdate = function(self)
    self.n = (self.n or 0) + 2
  end,
}
