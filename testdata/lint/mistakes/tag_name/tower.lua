-- Queries "enemies", a tag nothing sets: the tower never fires.
return {
  onUpdate = function(self, ctx, dt)
    local targets = ctx.query{ tag = "enemies", near = ctx.entity, radius = 10 }
    if #targets > 0 then print("fire") end
  end,
}
-- want: 4:39: warning: tag "enemies" is queried but nothing sets it; did you mean "enemy"?
