-- An onCreate that never returns is stopped during the scene's setup; its
-- instance is faulted and never updated, and the scene starts anyway.
return {
  onCreate = function(self, ctx)
    while true do end
  end,
  onUpdate = function(self, ctx)
    print("create_spin updated after a failed onCreate")
  end,
}
