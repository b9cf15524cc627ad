-- patrol.lua: walks its entity along a loop of waypoints.
--
-- Shows: table properties (every instance gets its own deep copy), require
-- of a shared module, reading the committed position with e:position() and
-- writing the next one with e:setPosition().
--
-- Attach it in a scene:
--   { "script": "patrol",
--     "props": { "speed": 4, "waypoints": [[0,0,0], [4,0,0], [4,0,4]] } }

local vec = require("lib.vec")
local story = require("lib.story")

return {
  properties = {
    speed = 2, -- units per second
    waypoints = { { 0, 0, 0 }, { 2, 0, 0 } },
  },

  onCreate = function(self, ctx)
    self.next = 2 -- start at waypoint 1, head for waypoint 2
    local start = self.waypoints[1]
    -- During setup this write is committed before frame 1.
    ctx.entity:setPosition(start[1], start[2], start[3])
  end,

  onUpdate = function(self, ctx, dt)
    local here = vec.of(ctx.entity) -- as committed at the end of last frame
    local goal = self.waypoints[self.next]
    local to = vec.sub(goal, here)
    local dist = vec.length(to)
    local step = self.speed * dt

    if dist <= step + 1e-9 then
      -- Arrive exactly on the waypoint, then turn to the next one.
      ctx.entity:setPosition(goal[1], goal[2], goal[3])
      story.say(ctx, "reaches waypoint %d at %s", self.next, vec.str(goal))
      self.next = self.next % #self.waypoints + 1
    else
      local p = vec.add(here, vec.scale(to, step / dist))
      ctx.entity:setPosition(p[1], p[2], p[3])
    end
  end,
}
