-- reload/tuned, version 2: new defaults for damage and colour; range is
-- unchanged. onReload(self, old, ctx) sees the old values and the ctx.
return {
  properties = { damage = 50, colour = { 0, 1, 0 }, range = 5, id = "" },
  onReload = function(self, old, ctx)
    print("reload", self.id, "old", old.damage, "new", self.damage, ctx.entity:id(), ctx.frame)
  end,
  onUpdate = function(self, ctx)
    print("v2", self.id, self.damage, table.concat(self.colour, ","), self.range)
  end,
}
