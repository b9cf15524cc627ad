-- reload/events, version 1.
return {
  events = {
    ping = function(self, ctx, data) print("v1 ping", data) end,
    gone = function(self, ctx, data) print("v1 gone") end,
  },
}
