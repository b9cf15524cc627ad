-- Spawns `count` self/bump entities from its onCreate, throwing a spec
-- table away for each: selves made inside a callback are made ahead, in
-- runs.
return {
  properties = { count = 1 },
  onCreate = function(self, ctx)
    for i = 1, self.count do
      ctx.spawn({ scripts = { "self/bump" } })
    end
  end,
}
