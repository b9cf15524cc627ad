-- Handles "damage", which the sender misspells.
return {
  properties = { hp = 10 },
  onCreate = function(self, ctx) ctx.entity:tag("enemy") end,
  events = {
    damage = function(self, ctx, data, ev) self.hp = self.hp - data end,
  },
}
-- want: 6:5: warning: event "damage" is handled but no script sends it; did you mean "damgae"?
