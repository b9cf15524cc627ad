-- spawner.lua: spawns a numbered minion every so often and dismisses the
-- oldest one when there are too many.
--
-- Shows: a timer (ctx.every names a function of this table, so it keeps
-- running across a hot reload), ctx.spawn with a name, a vector position,
-- tags and scripts with props (a new entity is pending until the end of
-- the frame, so its first onUpdate is in the next frame), keeping entity
-- values in self, e:kill(), math.random (seeded by the scene's "seed" or
-- --seed, so every run tells the same story) and ctx.log (to the host log,
-- stderr).

local story = require("lib.story")

return {
  properties = {
    every = 2 / 3, -- seconds between two spawns (40 frames at 60 fps)
    max = 2,       -- minions alive at once; the oldest is dismissed beyond
    range = 5,     -- minions appear within this many units of the origin
  },

  onCreate = function(self, ctx)
    self.spawned = 0
    self.minions = {} -- entity values, oldest first
    ctx.every(self.every, "spawn")
    ctx.log(string.format("spawning a minion every %.2f seconds, keeping %d", self.every, self.max))
  end,

  -- Called by the timer: spawn(self, ctx, data).
  spawn = function(self, ctx)
    self.spawned = self.spawned + 1
    local n = self.spawned
    local at = vec3(math.random(-self.range, self.range), 0, math.random(-self.range, self.range))
    local minion = ctx.spawn({
      name = "minion " .. n,
      position = at,
      tags = { "minion" },
      scripts = { { script = "minion", props = { number = n } } },
    })
    -- The minion's onCreate has already run; it is "pending" until the
    -- end of this frame.
    story.say(ctx, "minion %d appears at %s (%s)", n, story.at(at), minion:state())
    table.insert(self.minions, minion)

    if #self.minions > self.max then
      local oldest = table.remove(self.minions, 1)
      story.say(ctx, "dismisses %s", oldest:name())
      -- Dying now; its onDestroy runs when this frame ends. (kill returns
      -- false, and does nothing, if it was already gone.)
      oldest:kill()
    end
  end,
}
