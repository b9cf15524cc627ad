-- errors/create.lua: onCreate fails; the instance then gets no callback.
return {
  onCreate = function(self, ctx)
    error("cannot start")
  end,
  onUpdate = function(self, ctx) print("update of a create-failed instance") end,
  onDestroy = function(self, ctx) print("destroy of a create-failed instance") end,
  events = { ping = function() print("ping of a create-failed instance") end },
}
