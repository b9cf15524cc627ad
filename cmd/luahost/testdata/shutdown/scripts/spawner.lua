-- Spawns an entity with "bye" in every frame, and one during setup.
return {
  onCreate = function(self, ctx)
    ctx.spawn({ name = "setup-spawn", scripts = { "bye" } })
  end,
  onUpdate = function(self, ctx)
    print("frame", ctx.frame)
    ctx.spawn({ name = "spawn-" .. ctx.frame, scripts = { "bye" } })
  end,
}
