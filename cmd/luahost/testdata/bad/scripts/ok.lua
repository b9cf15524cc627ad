-- A good script among broken ones.
return {
  onUpdate = function(self, ctx) print("ok", ctx.frame) end,
}
