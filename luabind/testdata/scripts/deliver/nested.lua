-- A handler that dispatches another event to the same script before it
-- reads its own ev: the nested delivery must not take over the outer
-- handler's ev (the host reuses ev userdata per nesting depth).
return {
  events = {
    outer = function(self, ctx, data, ev)
      ctx.emit("inner", data)
      self.outerName = ev.name
      ev:stop()
    end,
    inner = function(self, ctx, data, ev) self.innerName = ev.name end,
  },
}
