-- reload/victim: prints its lifecycle and the pings it gets, with its
-- entity's name.
return {
  onCreate = function(self, ctx) print("victim created", ctx.entity:name()) end,
  onDestroy = function(self, ctx) print("victim destroyed", ctx.entity:name()) end,
  events = {
    ping = function(self, ctx, data) print("victim pinged", ctx.entity:name(), data) end,
  },
}
