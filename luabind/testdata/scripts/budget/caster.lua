-- budget/caster.lua: broadcasts "cast" in every frame and prints that it
-- did; its onDestroy says goodbye.
return {
  onUpdate = function(self, ctx)
    ctx.broadcast("cast", ctx.frame)
    print("cast", ctx.frame)
  end,
  onDestroy = function(self, ctx)
    print("caster done")
  end,
}
