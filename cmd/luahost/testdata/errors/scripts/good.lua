-- Keeps running whatever the others do.
return {
  priority = 1,
  onUpdate = function(self, ctx)
    print(ctx.frame, "good update", ctx.entity:name())
    if ctx.entity:name() == "fine" then
      ctx.emit("tick", ctx.frame)
    end
  end,
  onDestroy = function(self, ctx)
    print(ctx.frame, "good destroy", ctx.entity:name())
  end,
}
