-- narrator.lua: opens and closes the story and reports what lands in the
-- blackboard.
--
-- Shows: a high priority to run after everyone else in a frame, reading
-- values the scene put in the blackboard, noticing changes made by other
-- scripts (through copies: changing what you read changes nothing for the
-- others), and ctx.query by tag.

local story = require("lib.story")

return {
  priority = 100, -- after every other script of the demo

  onCreate = function(self, ctx)
    self.gold = 0
  end,

  onUpdate = function(self, ctx, dt)
    if ctx.frame == 1 then
      story.say(ctx, "%s", ctx.blackboard.title or "a world wakes up")
    end

    local loot = ctx.blackboard.loot
    if loot and loot.gold ~= self.gold then
      self.gold = loot.gold
      story.say(ctx, "the blackboard now holds %d gold and %s", loot.gold, table.concat(loot.items, ", "))
      loot.gold = 0 -- only our copy: the blackboard keeps its value
    end
  end,

  onDestroy = function(self, ctx)
    local about = #ctx.query({ tag = "minion" })
    story.say(ctx, "the end, after %d frames (%.1f seconds), with %d minions about", ctx.frame, ctx.time, about)
  end,
}
