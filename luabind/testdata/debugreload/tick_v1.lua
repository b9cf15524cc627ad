-- The first version of a script saved while the world is paused in the
-- debugger at line 5: the paused frame must finish with this code.
return {
  onUpdate = function(self, ctx)
    self.v = 1
    print("v1")
  end,
}
