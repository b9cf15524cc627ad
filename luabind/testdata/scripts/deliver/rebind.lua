-- Replaces its own hit handler in onCreate: a script's handlers are the
-- functions its events table held when the chunk returned it (as for
-- onUpdate), so the replacement is never called.
local M
M = {
  onCreate = function(self, ctx)
    M.events.hit = function(self) self.by = "replacement" end
  end,
  events = {
    hit = function(self, ctx, data, ev) self.by = "original" end,
  },
}
return M
