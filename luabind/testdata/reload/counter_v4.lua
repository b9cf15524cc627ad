-- reload/counter, version 4: checks what three reloads carried.
return {
  properties = { step = 1, id = 0 },
  onUpdate = function(self, ctx)
    self.total = self.total + self.step
    assert(self.me == ctx.entity, "an entity value survives reloads")
    assert(self.count == nil, "the renamed field stays gone")
    print("v4", self.id, self.total, self.bonus, table.concat(self.history, ","))
  end,
}
