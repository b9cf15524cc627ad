-- hotreload/chain, version 1: its state is a counter and a table; every
-- later version appends its own tag to the history when it takes over.
return {
  onCreate = function(self, ctx)
    self.n = 0
    self.history = { "v1" }
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("v1", self.n, ctx.frame, table.concat(self.history, ","))
  end,
}
