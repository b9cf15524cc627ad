-- The version saved while the world is paused in the debugger: it must
-- run from the frame after the paused one.
return {
  onUpdate = function(self, ctx)
    self.v = 2
    print("v2")
  end,
}
