-- helper/neighbour.lua: prints "neighbour FRAME" every frame; the tests of
-- faulting scripts check that it kept running.
return {
  onUpdate = function(self, ctx)
    print("neighbour", ctx.frame)
  end,
}
