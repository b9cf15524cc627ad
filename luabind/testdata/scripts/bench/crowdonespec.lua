-- The crowd with one spawn spec table for all its spawns: the scale
-- benchmarks' measure of what the specs an onCreate throws away cost a
-- Lua-spawned world (BenchmarkScale's "lua-onespec" origin).
return {
  properties = { count = 1000 },
  onCreate = function(self, ctx)
    local spec = { scripts = { "bench/spinner" } }
    for i = 1, self.count do
      ctx.spawn(spec)
    end
  end,
}
