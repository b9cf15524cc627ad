-- Like probe, at priority 5.
return {
  priority = 5,
  onCreate = function(self, ctx) print(ctx.frame, "late create", ctx.entity:name(), ctx.entity:state()) end,
  onUpdate = function(self, ctx) print(ctx.frame, "late update", ctx.entity:name()) end,
  onDestroy = function(self, ctx) print(ctx.frame, "late destroy", ctx.entity:name(), ctx.entity:state()) end,
}
