-- cause/depth.lua: a handler that emits its own event again; the
-- dispatch nested past the limit is refused, and the report wraps
-- runtime.ErrEventDepth.
return {
  onUpdate = function(self, ctx)
    ctx.emit("echo")
  end,
  events = {
    echo = function(self, ctx)
      ctx.emit("echo")
    end,
  },
}
