-- hostile/spawn_growth.lua: 20,000 entities more every frame, without
-- scripts: growth across frames that is not Lua data. The ceiling cannot
-- tell whose it is; it blamed the instance holding the most Lua data, a
-- bystander holding almost nothing.
return {
  onUpdate = function(self, ctx)
    for _ = 1, 20000 do ctx.spawn() end
  end,
}
