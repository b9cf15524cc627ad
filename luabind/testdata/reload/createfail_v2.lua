-- reload/createfail, version 2: onCreate works.
return {
  onCreate = function(self, ctx)
    self.ready = true
    print("created by v2", ctx.frame)
  end,
  onReload = function(self, old) print("onReload must not run for a create-failed instance") end,
  onUpdate = function(self, ctx) print("v2 update", self.ready) end,
}
