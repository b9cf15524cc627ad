-- cause/spawn.lua: spawns an entity with a script that does not exist;
-- the report wraps the *luabind.LoadError.
return {
  onUpdate = function(self, ctx)
    ctx.spawn({ scripts = { { script = "cause/missing" } } })
  end,
}
