-- mover moves one unit along x a frame and kills itself in frame 6.
return {
  onUpdate = function(self, ctx)
    local x = ctx.entity:position()
    ctx.entity:setPosition(x + 1, 0, 0)
    if ctx.frame == 6 then ctx.entity:kill() end
  end,
}
