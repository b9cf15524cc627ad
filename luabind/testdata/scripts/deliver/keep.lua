-- Keeps the last event data it got: a handler whose body allocates
-- nothing, so that a test can count what delivering costs.
return {
  events = {
    hit = function(self, ctx, data, ev) self.seen = data end,
  },
}
