-- Lives for one frame: keeps a little state, hears one event, and leaves
-- a blackboard entry behind that the next minion of its number replaces.
return {
  properties = { n = 0, frame = 0 },
  onCreate = function(self, ctx)
    self.trail = { self.n, self.frame, "x" .. self.n }
  end,
  onUpdate = function(self, ctx, dt)
    local x, y, z = ctx.entity:position()
    ctx.entity:setPosition(x, y + dt, z)
  end,
  onDestroy = function(self, ctx)
    ctx.blackboard["last" .. self.n] = self.frame
  end,
  events = {
    tick = function(self, ctx, frame)
      self.heard = frame
    end,
  },
}
