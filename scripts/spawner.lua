-- spawner.lua: spawns a numbered minion every few frames and dismisses
-- the oldest one when there are too many.
--
-- Shows: ctx.spawn (a new entity is pending until the end of the frame,
-- so its first onUpdate is in the next frame), keeping entity values in
-- self, e:kill(), math.random (seeded by the scene's "seed" or --seed, so
-- every run tells the same story) and ctx.log (to the host log, stderr).

local vec = require("lib.vec")
local story = require("lib.story")

return {
  properties = {
    every = 40, -- frames between two spawns
    max = 2,    -- minions alive at once; the oldest is dismissed beyond
    range = 5,  -- minions appear within this many units of the origin
  },

  onCreate = function(self, ctx)
    self.spawned = 0
    self.minions = {} -- entity values, oldest first
    ctx.log(string.format("spawning a minion every %d frames, keeping %d", self.every, self.max))
  end,

  onUpdate = function(self, ctx, dt)
    if ctx.frame % self.every ~= 0 then
      return
    end

    self.spawned = self.spawned + 1
    local n = self.spawned
    local at = vec.new(math.random(-self.range, self.range), 0, math.random(-self.range, self.range))
    local minion = ctx.spawn({
      name = "minion " .. n,
      position = at,
      scripts = { { script = "minion", props = { number = n } } },
    })
    -- The minion's onCreate has already run; it is "pending" until the
    -- end of this frame.
    story.say(ctx, "minion %d appears at %s (%s)", n, vec.str(at), minion:state())
    table.insert(self.minions, minion)

    if #self.minions > self.max then
      local oldest = table.remove(self.minions, 1)
      story.say(ctx, "dismisses %s", oldest:name())
      -- Dying now; its onDestroy runs when this frame ends.
      oldest:kill()
    end
  end,
}
