-- helper/printer.lua: prints and logs a little every frame.
return {
  onCreate = function(self, ctx)
    print("created", ctx.entity)
  end,
  onUpdate = function(self, ctx)
    print("frame", ctx.frame, nil, true, 1.5)
    print()
    ctx.log("hello", ctx.frame, nil)
  end,
}
