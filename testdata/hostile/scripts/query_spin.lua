-- Queries without end within one callback, in a world of 2,000 entities:
-- each query's Go work (the entities it considers, the values it returns)
-- is charged to the callback, so its budget stops the loop, not the
-- wall-clock backstop seconds later.
return {
  onCreate = function(self, ctx)
    for i = 1, 2000 do
      ctx.spawn({ name = "crowd", tags = { "crowd" } })
    end
  end,
  onUpdate = function(self, ctx)
    while true do
      ctx.query({})
      ctx.query({ script = "nobody" })
      ctx.findAll("crowd")
    end
  end,
}
