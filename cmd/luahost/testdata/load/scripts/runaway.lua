-- Runs away in frame 3: a loop that never ends. The work budget stops it
-- at the same instruction in every run, in frame 3, with the same
-- message.
return {
  onUpdate = function(self, ctx)
    self.n = (self.n or 0) + 1
    if ctx.frame == 3 then
      while true do
        self.n = self.n + 1
      end
    end
  end,
}
