-- e:kill() and e:revive(): Active -> Dying at once (no more onUpdate this
-- frame), settled and reaped at the flush; Pending -> cancelled; a second
-- kill returns false; revive returns a Dying entity to Active.
local check = require("lib.check")

local function probe(name)
  return { name = name, scripts = { { script = "helper/probe", props = { tag = name } } } }
end

return {
  onCreate = function(self, ctx)
    self.victim = ctx.spawn(probe("victim"))
    self.lazarus = ctx.spawn(probe("lazarus"))
  end,

  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    if ctx.frame == 1 then
      local v = self.victim
      check.eq(v:kill(), true, "kill an active entity")
      check.eq(v:state(), "dying", "Dying at once")
      check.eq(v:alive(), true, "not reaped before the flush")
      check.eq(v:kill(), false, "a second kill in the frame")

      local l = self.lazarus
      check.eq(l:kill(), true, "kill")
      check.eq(l:revive(), true, "revive a Dying entity")
      check.eq(l:state(), "active", "Active again")
      check.eq(l:revive(), false, "revive an entity that is not Dying")

      local p = ctx.spawn(probe("pending"))
      check.eq(p:kill(), true, "kill a Pending entity: cancelled")
      check.eq(p:kill(), false, "kill a cancelled entity")
      self.pending = p
    elseif ctx.frame == 2 then
      local v = self.victim
      check.eq(v:alive(), false, "reaped at the flush")
      check.eq(v:state(), "dead", "a stale handle's state")
      check.eq(bb["updates.victim"], nil, "a Dying entity gets no onUpdate, even later in the frame")
      check.eq(bb["destroyed.victim"], 1, "settled in frame 1")
      check.eq(bb["updates.lazarus"], 1, "a revived entity still updates")
      check.eq(bb["destroyed.lazarus"], nil, "and is not settled")
      check.eq(self.pending:alive(), false, "a cancelled entity is reaped")
      check.eq(bb["created.pending"], 1, "its scripts were created")
      check.eq(bb["destroyed.pending"], 1, "and destroyed")
      check.eq(bb["updates.pending"], nil, "and never updated")
      done()
    end
  end,
}
