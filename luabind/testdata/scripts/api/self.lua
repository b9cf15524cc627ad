-- self: a deep copy of properties whose top-level keys the attach's props
-- override; instances share no table, and changing one's self changes
-- nobody else's.
local check = require("lib.check")

return {
  properties = { speed = 90, stats = { hp = 10, tags = { "a", "b" } }, label = "base" },

  onCreate = function(self, ctx)
    if self.role == "twin" then
      check.eq(self.speed, 5, "props override a default")
      check.eq(self.stats.hp, 10, "defaults the props do not name are copied")
      self.stats.hp = 99
      self.stats.tags[1] = "changed"
      return
    elseif self.role == "override" then
      check.eq(self.stats.hp, 1, "a table in props replaces the default")
      check.eq(self.stats.tags, nil, "props override top-level keys, they do not merge")
      return
    elseif self.role == "late" then
      check.eq(self.stats.hp, 10, "a later instance gets the pristine default")
      check.eq(self.stats.tags[1], "a", "also nested")
      return
    end
    check.eq(self.speed, 90, "default speed")
    check.eq(self.label, "base", "default label")
    check.eq(self.role, nil, "no props")
    ctx.entity:attach("api/self", { role = "twin", speed = 5 })
    ctx.entity:attach("api/self", { role = "override", stats = { hp = 1 } })
    check.eq(self.stats.hp, 10, "a twin's change to its stats is not seen")
    check.eq(self.stats.tags[1], "a", "nested tables are deep-copied")
    self.stats.hp = 11
  end,

  onUpdate = function(self, ctx)
    if self.role ~= nil then return end
    if ctx.frame == 1 then
      ctx.entity:attach("api/self", { role = "late" })
    elseif ctx.frame == 2 then
      check.eq(self.stats.hp, 11, "self keeps its own changes")
      done()
    end
  end,
}
