-- damage.lua: a turret. Every so often it looks for the nearest target in
-- range and sends it a "damage" event; it stops when it hears that the
-- target died.
--
-- The other half of health.lua. Shows: a timer, ctx.query (the nearest
-- entity tagged "target" within range, found through the runtime's
-- spatial index), e:send (only the target's own scripts hear it),
-- listening to a broadcast event, and what an entity value looks like
-- once its entity is gone (a stale handle).

local story = require("lib.story")

return {
  properties = {
    tag = "target", -- what it shoots at
    range = 15,     -- units
    amount = 5,
    every = 1,      -- seconds between two shots
  },

  onCreate = function(self, ctx)
    self.timer = ctx.every(self.every, "fire")
  end,

  -- Called by the timer.
  fire = function(self, ctx)
    local found = ctx.query({ tag = self.tag, near = ctx.entity, radius = self.range, limit = 1 })
    local target = found[1]
    if target == nil then
      return
    end
    self.victim, self.victimName = target, story.who(target)
    local distance = vec3(target:position()):distance(vec3(ctx.entity:position()))
    story.say(ctx, "fires at %s, %d units away", story.who(target), distance)
    target:send("damage", { amount = self.amount, from = story.who(ctx.entity) })
  end,

  onUpdate = function(self, ctx, dt)
    if self.victim and not self.victim:alive() then
      -- Our target was reaped at the end of last frame. Its entity value
      -- is stale now: alive() is false, state() is "dead", and any other
      -- method would raise "stale entity handle ...".
      story.say(ctx, "the handle of its target is stale now (state %q)", self.victim:state())
      self.victim = nil
    end
  end,

  events = {
    -- Broadcast by health.lua with ctx.emit.
    -- The victim's name is the one it had when the turret fired: under
    -- the zoned rules (luahost run --zones) the event comes a frame
    -- later, once the victim is gone and its value stale.
    died = function(self, ctx, data, ev)
      if self.victim and data.name == self.victimName then
        story.say(ctx, "%s is down, ceasing fire", data.name)
        ctx.cancel(self.timer)
      end
    end,
  },
}
