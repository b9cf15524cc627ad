-- Prints in the first frame only, and once more at shutdown.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      print("first frame")
    end
  end,
  onDestroy = function(self, ctx)
    print("shut down", ctx.entity:name(), "after frame", ctx.frame > 0)
  end,
}
