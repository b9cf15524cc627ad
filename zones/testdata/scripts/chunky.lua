-- chunky prints when its chunk runs, which it does in every zone that
-- loads it, and its entity prints every frame.
print("chunk of chunky")
return {
  properties = { n = 0 },
  onUpdate = function(self, ctx) print("update", self.n, ctx.frame) end,
}
