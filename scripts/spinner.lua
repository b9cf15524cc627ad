-- spinner.lua: turns its entity around the y axis at a steady speed.
--
-- Shows: properties (defaults every instance starts with, overridable per
-- attach), priority, onCreate/onUpdate/onDestroy, and writing the
-- transform with e:setRotation.
--
-- Attach it in a scene:  { "script": "spinner", "props": { "speed": 180 } }

local story = require("lib.story")

return {
  -- Lower priorities run earlier in a frame; the default is 0.
  priority = 10,

  -- Copied into self before onCreate; a scene's "props" override them.
  properties = {
    speed = 90, -- degrees per second
  },

  onCreate = function(self, ctx)
    self.angle = 0 -- total degrees turned so far
    self.turns = 0
  end,

  onUpdate = function(self, ctx, dt)
    self.angle = self.angle + self.speed * dt
    -- The write is cached and committed at the end of the frame; anyone
    -- reading our rotation this frame still sees last frame's value.
    ctx.entity:setRotation(0, self.angle % 360, 0)

    -- Tell the story once per full turn. The small tolerance absorbs
    -- floating-point rounding (dt is 1/60, which is not exact in binary).
    if self.angle >= 360 * (self.turns + 1) - 1e-6 then
      self.turns = self.turns + 1
      story.say(ctx, "completes turn %d", self.turns)
    end
  end,

  -- Runs when the entity dies, the script is detached, or the world shuts
  -- down. ctx.frame is then the last frame that ran.
  onDestroy = function(self, ctx)
    story.say(ctx, "stops spinning after %d turns", self.turns)
  end,
}
