-- hostile/spawn_loop.lua: entities spawned without end in one callback.
-- Each spawn is charged the work of making it, so the budget stops the
-- loop after about budget / 64 spawns, not budget / 4.
return {
  onUpdate = function(self, ctx)
    while true do ctx.spawn() end
  end,
}
