-- Priority 3: runs after phoenix's probe (priority 0) and revives it.
return {
  priority = 3,
  onUpdate = function(self, ctx)
    if ctx.frame == 3 then
      local p = ctx.find("phoenix")
      print(ctx.frame, "medic sees phoenix", p:state())
      print(ctx.frame, "medic revive", p:revive(), p:state())
      print(ctx.frame, "medic revive again", p:revive())
    end
  end,
}
