-- minion.lua: the spawner's creature. It does nothing but report its own
-- lifecycle, which makes the order of things visible:
--
--   onCreate   runs at once, inside the spawner's ctx.spawn;
--   onUpdate   runs from the next frame on (the frame it was spawned in
--              is already under way);
--   onDestroy  runs at the end of the frame it was killed in, or when the
--              world shuts down.

local story = require("lib.story")

return {
  properties = {
    number = 0, -- set by the spawner
  },

  onCreate = function(self, ctx)
    self.born = ctx.frame
  end,

  onUpdate = function(self, ctx, dt)
    if not self.awake then
      self.awake = true
      story.say(ctx, "wakes up (spawned in frame %d)", self.born)
    end
  end,

  onDestroy = function(self, ctx)
    story.say(ctx, "vanishes after %d frames", ctx.frame - self.born)
  end,
}
