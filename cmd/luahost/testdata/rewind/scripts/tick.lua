-- Counts its frames by one; saved over by ../tick_v2.lua while the world
-- runs, so that a rewind to before the reload is refused.
return {
  onUpdate = function(self)
    self.n = (self.n or 0) + 1
  end,
}
