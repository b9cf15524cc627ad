-- hostile/create.lua: an endless loop in onCreate, during a frame.
return {
  onUpdate = function(self, ctx)
    if not self.spawned then
      self.spawned = true
      ctx.spawn({ scripts = { "hostile/create_loop" } })
    end
  end,
}
