-- hotreload/chain, version 4: its state is a counter and a table; every
-- later version appends its own tag to the history when it takes over.
return {
  onCreate = function(self, ctx)
    self.n = 0
    self.history = { "v1" }
  end,
  onReload = function(self, old)
    table.insert(self.history, "v4")
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("v4", self.n, ctx.frame, table.concat(self.history, ","))
  end,
}
