-- Prints every frame that it runs, with the doomed entity's fate.
return {
  onUpdate = function(self, ctx)
    print("census", ctx.frame, ctx.entity:name(), ctx.find("doomed") == nil)
  end,
}
