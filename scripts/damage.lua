-- damage.lua: fires at a named target every few frames by sending it a
-- "damage" event; stops when it hears that the target died.
--
-- The other half of health.lua. Shows: ctx.find, e:send (only the target's
-- own scripts hear it), listening to a broadcast event, and what an entity
-- value looks like once its entity is gone (a stale handle).

local story = require("lib.story")

return {
  properties = {
    target = "dummy", -- the scene name of the entity to hit
    amount = 5,
    every = 30,       -- frames between two shots
  },

  onUpdate = function(self, ctx, dt)
    if self.victim and not self.victim:alive() then
      -- Our target was reaped at the end of last frame. Its entity value
      -- is stale now: alive() is false, state() is "dead", and any other
      -- method would raise "stale entity handle ...".
      story.say(ctx, "%s's handle is stale now (state %q)", self.target, self.victim:state())
      self.victim = nil
    end
    if self.done or ctx.frame % self.every ~= 0 then
      return
    end

    local target = ctx.find(self.target)
    if target == nil then
      return
    end
    self.victim = target
    story.say(ctx, "fires at %s", self.target)
    target:send("damage", { amount = self.amount, from = story.who(ctx.entity) })
  end,

  events = {
    -- Broadcast by health.lua with ctx.emit.
    died = function(self, ctx, data, ev)
      if data.name == self.target then
        story.say(ctx, "%s is down, ceasing fire", data.name)
        self.done = true
      end
    end,
  },
}
