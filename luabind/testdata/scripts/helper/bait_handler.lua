-- An innocent handler: on bait it makes one ordinary emit of its own.
return {
  events = {
    bait = function(self, ctx) ctx.emit("ordinary") end,
    ordinary = function(self, ctx) print("ordinary") end,
  },
}
