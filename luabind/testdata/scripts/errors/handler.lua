-- errors/handler.lua: an event handler that fails faults its instance.
return {
  onUpdate = function(self, ctx)
    print("handler script update", ctx.frame)
  end,
  events = {
    ping = function(self, ctx, data)
      print("ping", data)
      error("bad ping")
    end,
  },
}
