-- Prints, every frame, what the others left in the world.
return {
  priority = 10,
  onUpdate = function(self, ctx)
    print("watcher", ctx.frame)
  end,
  onDestroy = function(self, ctx)
    print("watcher", "done")
  end,
}
