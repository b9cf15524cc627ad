-- Every instance fails in frame 2, with the same message: the report is
-- written once, with a count of the other instances.
return {
  onUpdate = function(self, ctx, dt)
    if ctx.frame == 2 then error("out of ammo") end
  end,
}
