-- hostile/spawn_growth.lua: 20,000 entities more every frame, without
-- scripts: growth across frames that is not Lua data. The ceiling counts
-- the entities a script spawned with its state, so it faults this script,
-- not the bystander holding the most Lua data.
return {
  onUpdate = function(self, ctx)
    for _ = 1, 20000 do ctx.spawn() end
  end,
}
