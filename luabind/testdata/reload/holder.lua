-- reload/holder: keeps a function inside a table in self, which a reload
-- cannot copy.
return {
  onCreate = function(self, ctx)
    self.hooks = { onHit = function() end }
  end,
  onUpdate = function(self, ctx) print("holder") end,
}
