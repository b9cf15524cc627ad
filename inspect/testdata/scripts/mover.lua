-- Moves its entity along x by speed units a second and counts its
-- frames: the inspector's tests see positions change, step a paused
-- world one frame (frames grows by one) and edit speed.
return {
  properties = { speed = 1, frames = 0, notes = { "a", "b" } },
  onUpdate = function(self, ctx, dt)
    self.frames = self.frames + 1
    local x, y, z = ctx.entity:position()
    ctx.entity:setPosition(x + self.speed * dt, y, z)
  end,
}
