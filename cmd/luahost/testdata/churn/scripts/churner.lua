-- Every frame kills the minions it spawned in the frame before and spawns
-- a new batch, with names, tags, props and an event each: the long-run
-- check that memory stays flat under spawn and kill churn.
return {
  properties = { batch = 50 },
  onCreate = function(self, ctx)
    self.minions = {}
  end,
  onUpdate = function(self, ctx)
    for _, m in ipairs(self.minions) do
      m:kill()
    end
    self.minions = {}
    for i = 1, self.batch do
      self.minions[i] = ctx.spawn({
        name = "minion" .. i,
        tags = { "minion" },
        position = { i, 0, 0 },
        scripts = { { script = "minion", props = { n = i, frame = ctx.frame } } },
      })
    end
    ctx.emit("tick", ctx.frame)
    if ctx.frame % 1000 == 0 then
      print("frame", ctx.frame)
    end
  end,
}
