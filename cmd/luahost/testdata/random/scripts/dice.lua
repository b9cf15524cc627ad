-- Prints a few random numbers: the same for the same seed.
return {
  onUpdate = function(self, ctx)
    print(ctx.frame, math.random(1, 1000000), math.random(6), string.format("%.6f", math.random()))
  end,
}
