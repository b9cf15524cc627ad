-- hotreload/counter, version 3: counts its frames and prints the count
-- with ctx.frame, so a test can tell a reset or a lost frame from a
-- carried-over state.
return {
  properties = { tag = "?" },
  onCreate = function(self, ctx)
    self.n = 0
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("v3", self.tag, self.n, ctx.frame)
  end,
}
