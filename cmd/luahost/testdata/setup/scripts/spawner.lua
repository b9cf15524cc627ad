-- Spawns a child with a script during setup; the child is active in
-- frame 1 like the scene's own entities.
return {
  onCreate = function(self, ctx)
    ctx.spawn({ scripts = { "census" } })
  end,
}
