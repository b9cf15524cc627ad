-- reload/tuned, version 1: a tower with a damage, a colour and a range.
-- Instance "changed" raises its own damage; "props" is attached with
-- damage = 7 (the default's value, but set on purpose).
return {
  properties = { damage = 7, colour = { 1, 0, 0 }, range = 5, id = "" },
  onCreate = function(self, ctx)
    if self.id == "changed" then self.damage = 9 end
  end,
  onUpdate = function(self, ctx)
    print("v1", self.id, self.damage, table.concat(self.colour, ","), self.range)
  end,
}
