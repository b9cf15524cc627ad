-- Every instance fails in every frame, with a message that depends only
-- on its kind: an ErrorLog writes each frame's failures once per kind.
return {
  properties = { kind = "a" },
  onUpdate = function(self, ctx, dt)
    error("broken " .. self.kind)
  end,
}
