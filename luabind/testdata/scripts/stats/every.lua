-- Every kind of callback the host times, once each per frame where it
-- can: onCreate, onUpdate, an event handler (sent to itself), a timer
-- every second, onDestroy and, after a hot reload, onReload. The Go test
-- counts each kind's calls and checks the sums.
return {
  onCreate = function(self, ctx)
    ctx.every(1, "tick")
  end,
  onUpdate = function(self, ctx)
    ctx.entity:send("hit", 1)
  end,
  events = {
    hit = function(self, ctx, n) end,
  },
  tick = function(self, ctx) end,
  onDestroy = function(self, ctx) end,
  onReload = function(self, old, ctx) end,
}
