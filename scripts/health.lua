-- health.lua: hit points that go down when a "damage" event arrives.
--
-- The other half of damage.lua. Shows: handlers in the events table
-- (events.damage(self, ctx, data, ev)), a handler's return value (the next
-- handler sees it as ev.last), e:kill() and ctx.emit to tell everyone.
--
-- Event data is plain data: { amount = 12, from = "turret" }.

local story = require("lib.story")

return {
  properties = {
    hp = 10,
  },

  events = {
    damage = function(self, ctx, data, ev)
      self.hp = math.max(0, self.hp - data.amount)
      story.say(ctx, "takes %d damage from %s, %d hp left", data.amount, data.from, self.hp)

      if self.hp == 0 then
        -- Dying from now on: no more updates or events for this entity;
        -- every script on it gets onDestroy when the frame ends.
        ctx.entity:kill()
        -- Tell every listener (any entity, any script) synchronously.
        ctx.emit("died", { name = story.who(ctx.entity), by = data.from })
      end
      return self.hp
    end,
  },
}
