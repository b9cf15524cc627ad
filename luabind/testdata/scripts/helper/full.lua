-- helper/full.lua: every field of a script table.
return {
  name = "Full House",
  priority = -3,
  properties = { speed = 2, nested = { a = 1 } },
  onCreate = function(self, ctx) end,
  onUpdate = function(self, ctx, dt) end,
  onDestroy = function(self, ctx) end,
  onReload = function(self, old) end,
  events = {
    zeta = function(self, ctx, data, ev) end,
    alpha = function(self, ctx, data, ev) end,
  },
}
