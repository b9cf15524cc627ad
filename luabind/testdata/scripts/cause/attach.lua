-- cause/attach.lua: attaches a script that does not exist; the report
-- wraps the *luabind.LoadError.
return {
  onUpdate = function(self, ctx)
    ctx.entity:attach("cause/missing")
  end,
}
