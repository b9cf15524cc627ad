-- listener prints the broadcasts it gets with the frame it gets them in
-- and its zone, and what it saw earlier in the frame (before its update):
-- a broadcast arrives before the first update of the frame.
return {
  onUpdate = function(self, ctx) self.updated = ctx.frame end,
  events = {
    ping = function(self, ctx, data)
      print(string.format("ping sent %d got %d zone %d updated %s", data.sent, ctx.frame, ctx.entity:zone(), tostring(self.updated)))
    end,
  },
}
