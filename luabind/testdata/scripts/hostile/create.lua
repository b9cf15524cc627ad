-- hostile/create.lua: spawns, during a frame, an entity whose script's
-- onCreate never returns. The onCreate runs nested in this onUpdate, on
-- its own clock while this callback's clock keeps running: this onUpdate
-- is faulted at the spawn line, the onCreate is stopped without blame.
return {
  onUpdate = function(self, ctx)
    if not self.spawned then
      self.spawned = true
      ctx.spawn({ scripts = { "helper/create_spin" } })
    end
  end,
}
