-- Spawns `count` bench spinners from Lua (ctx.spawn in onCreate): the
-- scale benchmarks' Lua-spawned world, in crowds of 1,000 so that no
-- onCreate comes near its budget.
return {
  properties = { count = 1000 },
  onCreate = function(self, ctx)
    for i = 1, self.count do
      ctx.spawn({ scripts = { "bench/spinner" } })
    end
  end,
}
