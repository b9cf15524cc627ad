-- reload/events, version 2: a new ping handler, a new event, one dropped.
return {
  events = {
    ping = function(self, ctx, data) print("v2 ping", data) end,
    pong = function(self, ctx, data) print("v2 pong", data) end,
  },
}
