-- Reports every callback of its instance, and the entity's state in
-- onCreate and onDestroy (unless quiet: a cancelled entity's state while
-- it is settled is not part of the contract).
local function report(self, ctx, what)
  if self.quiet then
    print(ctx.frame, what, ctx.entity:name())
  else
    print(ctx.frame, what, ctx.entity:name(), ctx.entity:state())
  end
end

return {
  properties = { quiet = false },
  onCreate = function(self, ctx) report(self, ctx, "probe create") end,
  onUpdate = function(self, ctx) print(ctx.frame, "probe update", ctx.entity:name()) end,
  onDestroy = function(self, ctx) report(self, ctx, "probe destroy") end,
}
