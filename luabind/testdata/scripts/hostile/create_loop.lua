-- hostile/create_loop.lua: onCreate never returns.
return {
  onCreate = function(self, ctx)
    while true do end
  end,
  onUpdate = function(self, ctx) print("update of a create-failed instance") end,
}
