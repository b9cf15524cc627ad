-- Priority -5: before every script of priority 0.
return {
  priority = -5,
  onCreate = function(self, ctx) print(ctx.frame, "create early", ctx.entity:name()) end,
  onUpdate = function(self, ctx) print(ctx.frame, "update early", ctx.entity:name()) end,
}
