-- cause/emit.lua: emits data holding a function; the report wraps
-- runtime.ErrNotPlain.
return {
  onUpdate = function(self, ctx)
    ctx.emit("hit", { f = print })
  end,
}
