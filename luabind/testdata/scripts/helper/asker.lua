-- helper/asker.lua: emits "ask" every frame and prints what came back.
return {
  onUpdate = function(self, ctx)
    print("ask returned", ctx.emit("ask", ctx.frame))
  end,
}
