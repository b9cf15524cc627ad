-- cause/dying.lua: attaches a script to an entity it just killed; the
-- report wraps runtime.ErrNotAttachable.
return {
  onUpdate = function(self, ctx)
    ctx.entity:kill()
    ctx.entity:attach("cause/emit")
  end,
}
