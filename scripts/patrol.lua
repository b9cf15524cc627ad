-- patrol.lua: walks its entity along a loop of waypoints.
--
-- Shows: table properties (every instance gets its own deep copy), vectors
-- (vec3: arithmetic, length, and setPosition taking one vector), reading
-- the committed position with e:position() and writing the next one.
--
-- Attach it in a scene:
--   { "script": "patrol",
--     "props": { "speed": 4, "waypoints": [[0,0,0], [4,0,0], [4,0,4]] } }

local story = require("lib.story")

return {
  properties = {
    speed = 2, -- units per second
    waypoints = { { 0, 0, 0 }, { 2, 0, 0 } }, -- {x, y, z} lists (JSON has no vectors)
  },

  onCreate = function(self, ctx)
    self.next = 2 -- start at waypoint 1, head for waypoint 2
    -- During setup this write is committed before frame 1. vec3 of a
    -- {x, y, z} list is a vector.
    ctx.entity:setPosition(vec3(self.waypoints[1]))
  end,

  onUpdate = function(self, ctx, dt)
    local here = vec3(ctx.entity:position()) -- as committed at the end of last frame
    local goal = vec3(self.waypoints[self.next])
    local to = goal - here
    local step = self.speed * dt

    if to:length() <= step + 1e-9 then
      -- Arrive exactly on the waypoint, then turn to the next one.
      ctx.entity:setPosition(goal)
      story.say(ctx, "reaches waypoint %d at %s", self.next, story.at(goal))
      self.next = self.next % #self.waypoints + 1
    else
      ctx.entity:setPosition(here + to:normalized() * step)
    end
  end,
}
