-- ver prints its version, its entity's number and the frame, every
-- frame: a test saves it with another version while the world runs on
-- four zones, one entity in each.
return {
  properties = { n = 0 },
  onUpdate = function(self, ctx) print(string.format("v1\t%d\t%d", self.n, ctx.frame)) end,
}
