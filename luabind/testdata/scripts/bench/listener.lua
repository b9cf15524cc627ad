-- The event-delivery benchmark's handler: it adds the event's number to
-- self.total, the handler counterpart of the spinner's onUpdate.
return {
  properties = { total = 0 },
  events = {
    hit = function(self, ctx, data, ev) self.total = self.total + data end,
  },
}
