-- Fails in every update it gets, on line 6, counting its tries: the
-- inspector shows the instance faulted with that error and line.
return {
  properties = { tries = 0 },
  onUpdate = function(self, ctx, dt)
    self.tries = self.tries + 1; error("broken on purpose")
  end,
}
