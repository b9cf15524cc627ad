-- caster broadcasts "ping" with its frame number in frame 1 only:
-- every zone's listeners must get it at the start of frame 2.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then ctx.broadcast("ping", { sent = ctx.frame }) end
  end,
}
