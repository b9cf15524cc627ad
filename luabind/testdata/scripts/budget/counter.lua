-- budget/counter.lua: counts in self.n for ever. The work budget stops it
-- after a number of iterations that depends only on the budget, never on
-- the machine's load: self.n is the same in every run.
return {
  onUpdate = function(self, ctx)
    self.n = 0
    while true do
      self.n = self.n + 1
    end
  end,
}
