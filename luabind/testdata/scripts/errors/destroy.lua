-- errors/destroy.lua: onDestroy fails; the entity is settled all the same.
return {
  onDestroy = function(self, ctx)
    error("cannot stop")
  end,
}
