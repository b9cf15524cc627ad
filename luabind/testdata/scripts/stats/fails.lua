-- An onUpdate that fails on every other frame: the failures are counted
-- as the script's errors (a faulted instance stops, so each entity fails
-- once).
return {
  onUpdate = function(self, ctx)
    if ctx.frame % 2 == 0 then error("even frame") end
  end,
}
