-- Priority 5: after every script of priority 0.
return {
  priority = 5,
  onCreate = function(self, ctx) print(ctx.frame, "create late", ctx.entity:name()) end,
  onUpdate = function(self, ctx) print(ctx.frame, "update late", ctx.entity:name()) end,
}
