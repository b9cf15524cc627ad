-- Kills its own entity in onCreate, during the scene's setup: world
-- behaviour, not a scene error. The entity goes at once (it was
-- never active), so "second", listed after this script, is never attached,
-- and the start goes on.
return {
  onCreate = function(self, ctx)
    print("suicide", "kills", ctx.entity:name())
    ctx.entity:kill()
  end,
  onDestroy = function(self, ctx)
    print("suicide", "destroyed")
  end,
}
