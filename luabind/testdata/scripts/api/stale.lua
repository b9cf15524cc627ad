-- A stale handle (its entity reaped): id, alive and state answer, kill
-- returns false (destroying what is gone is not an error); every other
-- method raises "stale entity handle entity(I:G)", also when the slot was
-- reused by a new entity.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    self.victim = ctx.spawn({ name = "victim" })
  end,

  onUpdate = function(self, ctx)
    local v = self.victim
    if ctx.frame == 1 then
      self.id = v:id()
      v:kill()
    elseif ctx.frame == 2 then
      check.eq(v:alive(), false, "alive")
      check.eq(v:state(), "dead", "state")
      check.eq(v:id(), self.id, "id")
      -- the slot is reused by the next spawn, with a new generation
      local reborn = ctx.spawn({ name = "reborn" })
      local oldIndex, oldGen = self.id:match("^entity%((%d+):(%d+)%)$")
      local newIndex, newGen = reborn:id():match("^entity%((%d+):(%d+)%)$")
      check.eq(newIndex, oldIndex, "the slot is reused")
      check.truthy(tonumber(newGen) > tonumber(oldGen), "with a newer generation")
      check.truthy(reborn ~= v, "the new occupant is another entity")

      local want = "stale entity handle " .. self.id
      local calls = {
        { "name" },
        { "position" },
        { "setPosition", 1, 2, 3 },
        { "rotation" },
        { "setRotation", 1, 2, 3 },
        { "scale" },
        { "setScale", 1, 2, 3 },
        { "attach", "helper/probe" },
        { "detach", "helper/probe" },
        { "revive" },
        { "send", "ping", {} },
        { "tag", "x" },
        { "untag", "x" },
        { "hasTag", "x" },
        { "tags" },
      }
      for _, c in ipairs(calls) do
        local m = v[c[1]]
        check.truthy(m, "method " .. c[1])
        local err = check.fails(want, m, v, unpack(c, 2))
        check.truthy(err:find("stale entity handle", 1, true), c[1] .. ": " .. err)
      end
      check.eq(v:kill(), false, "kill on a stale handle")
      self.reborn = reborn
    elseif ctx.frame == 3 then
      local reborn = self.reborn
      check.eq(reborn:name(), "reborn", "the stale calls did not touch the new occupant")
      check.eq(reborn:state(), "active", "nor its state")
      local x, y, z = reborn:position()
      check.vec(x, y, z, 0, 0, 0, "nor its transform")
      done()
    end
  end,
}
