-- hostile/query_loop.lua: queries without end in one callback, a line
-- printed after each. A query is charged the entities it considers and
-- those it returns, so the budget stops the loop after a number of
-- queries that depends on the world, not on the machine.
return {
  onUpdate = function(self, ctx)
    local q = self.query
    while true do
      if q == "findAll" then
        ctx.findAll("crowd")
      else
        ctx.query(q)
      end
      print("query")
    end
  end,
}
