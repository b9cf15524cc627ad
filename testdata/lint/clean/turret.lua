-- Correct code the linter must not warn about: timer targets and other
-- methods of the script table that are not callbacks (reload, report),
-- a helper class with its own self, fields set in onCreate, vectors,
-- entities from queries, events sent and handled, tags set and queried.
local Magazine = {}
Magazine.__index = Magazine

function Magazine.new(size)
  return setmetatable({ size = size, left = size }, Magazine)
end

function Magazine:take()
  if self.left == 0 then return false end
  self.left = self.left - 1
  return true
end

return {
  properties = { range = 10, damage = 3 },
  onCreate = function(self, ctx)
    self.shots = 0
    self.magazine = Magazine.new(6)
    ctx.entity:tag("tower")
    ctx.every(0.5, "report")
  end,
  onUpdate = function(self, ctx, dt)
    local here = vec3(ctx.entity:position())
    for _, e in ipairs(ctx.query{ tag = "enemy", near = ctx.entity, radius = self.range }) do
      local there = vec3(e:position())
      local dir = (there - here):normalized()
      if here:distance(there) < self.range and self.magazine:take() then
        e:send("damage", { amount = self.damage, from = dir:unpack() })
        self.shots = self.shots + 1
      else
        ctx.after(1, "reload")
      end
    end
  end,
  reload = function(self, ctx)
    self.magazine = Magazine.new(6)
  end,
  report = function(self, ctx)
    ctx.log("shots", self.shots, math.floor(ctx.time), string.format("%.1f", ctx.dt))
  end,
  events = {
    destroyed = function(self, ctx, data, ev) ctx.blackboard.kills = (ctx.blackboard.kills or 0) + 1 end,
  },
}
