-- hostile/loop.lua: an endless loop.
return {
  onUpdate = function(self, ctx)
    while true do end
  end,
}
