-- Fails in its first update, on line 6: the inspector shows the instance
-- faulted with that error and line.
return {
  properties = { tries = 0 },
  onUpdate = function(self, ctx, dt)
    error("broken on purpose")
  end,
}
