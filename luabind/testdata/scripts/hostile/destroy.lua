-- hostile/destroy.lua: an endless loop in onDestroy.
return {
  onUpdate = function(self, ctx)
    ctx.entity:kill()
  end,
  onDestroy = function(self, ctx)
    while true do end
  end,
}
