-- chest.lua: holds loot and, when its entity dies, settles the loot into
-- the blackboard for others to find.
--
-- Shows: onDestroy as the place for settlement (it runs for every script
-- of a dying entity, even one whose other callbacks failed) and the
-- blackboard's copy semantics: reading ctx.blackboard.loot gives you a
-- copy, so change the copy and store it back.
--
-- Give the entity health.lua too, so that something can kill it.

local story = require("lib.story")

return {
  properties = {
    gold = 10,
    items = {}, -- names of items, such as { "ruby" }
  },

  onDestroy = function(self, ctx)
    local loot = ctx.blackboard.loot or { gold = 0, items = {} }
    loot.gold = loot.gold + self.gold
    for _, item in ipairs(self.items) do
      table.insert(loot.items, item)
    end
    ctx.blackboard.loot = loot -- store the changed copy back

    local what = table.concat(self.items, ", ")
    if what == "" then what = "nothing else" end
    story.say(ctx, "breaks open: %d gold and %s go to the blackboard", self.gold, what)
  end,
}
