-- Copies the blackboard's "level" into self.seen every frame: an edit of
-- the blackboard shows in its self after the next frame.
return {
  properties = { seen = false },
  onUpdate = function(self, ctx, dt)
    self.seen = ctx.blackboard.level
  end,
}
