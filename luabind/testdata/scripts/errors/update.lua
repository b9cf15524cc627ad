-- errors/update.lua: onUpdate fails on line 8 in its first frame.
return {
  onUpdate = function(self, ctx, dt)
    self.updates = (self.updates or 0) + 1
    print("update", self.updates)
    local target = nil
    -- the next line indexes nil
    return target.x
  end,
  onDestroy = function(self, ctx)
    print("destroy after", self.updates, "updates")
  end,
  events = {
    ping = function(self, ctx, data)
      print("ping reached a faulted instance")
    end,
  },
}
