-- Default priority (0).
return {
  onCreate = function(self, ctx) print(ctx.frame, "create mid", ctx.entity:name()) end,
  onUpdate = function(self, ctx) print(ctx.frame, "update mid", ctx.entity:name()) end,
}
