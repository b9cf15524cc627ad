-- reload/createfail, version 1: onCreate fails.
return {
  onCreate = function(self, ctx) error("cannot create") end,
  onUpdate = function(self, ctx) print("v1 update") end,
}
