-- Says goodbye with the frame and time it sees.
return {
  onDestroy = function(self, ctx)
    print("bye", ctx.entity:name(), "frame", ctx.frame, "time", string.format("%.3f", ctx.time))
  end,
}
