-- hotreload/counter, a save with a syntax error on line 8.
return {
  properties = { tag = "?" },
  onCreate = function(self, ctx)
    self.n = 0
  end,
  onUpdate = function(self, ctx)
    self.n = = self.n + 1
  end,
}
