-- Drives the lifecycle scene, one step per frame. Priority -10: first.
-- index("entity(3:1)") returns 3, 1.
local function index(id)
  local i, g = id:match("^entity%((%d+):(%d+)%)$")
  return tonumber(i), tonumber(g)
end

local function try(frame, label, f)
  local ok, err = pcall(f)
  print(frame, label, ok, err)
end

return {
  priority = -10,
  onUpdate = function(self, ctx)
    self.kept = self.kept or {} -- kept across frames: world state, in self
    local kept = self.kept
    local f = ctx.frame
    print(f, "director")
    if f == 1 then
      -- Spawned during the update: created now, pending, first update in frame 2.
      local kid = ctx.spawn({ name = "kid", scripts = { "probe" } })
      print(f, "spawned kid", kid:state())
      kept.kid = kid
    elseif f == 2 then
      -- Two kills: settled in kill order (B then A), each entity's
      -- instances in schedule order; no more updates for them this frame.
      local a, b = ctx.find("victimA"), ctx.find("victimB")
      kept.a, kept.b = a, b
      kept.aid, kept.bid = a:id(), b:id()
      print(f, "kill victimB", b:kill(), b:state())
      print(f, "kill victimA", a:kill(), a:state())
      print(f, "kill victimA again", a:kill())
    elseif f == 3 then
      -- Killed here, revived by the medic later in the frame.
      local p = ctx.find("phoenix")
      print(f, "kill phoenix", p:kill(), p:state())
      -- Stale handles: victimA and victimB were reaped at frame 2's flush.
      local a = kept.a
      print(f, "stale alive", a:alive(), "state", a:state())
      print(f, "stale id unchanged", a:id() == kept.aid, "equal to itself", a == kept.a)
      print(f, "find victimA", ctx.find("victimA"))
      try(f, "stale position", function() return a:position() end)
      try(f, "stale kill", function() return a:kill() end)
      try(f, "stale name", function() return a:name() end)
    elseif f == 4 then
      -- Spawn then kill while pending: cancelled, its onDestroy runs at the
      -- flush, it never updates.
      local g = ctx.spawn({ name = "ghost", scripts = { { script = "probe", props = { quiet = true } } } })
      print(f, "kill pending ghost", g:kill())
      print(f, "kill ghost again", g:kill())
      kept.ghost = g
      -- The ghost took a freed slot with a new generation; the old handle
      -- of that slot stays stale.
      local gi, gg = index(g:id())
      local ai, ag = index(kept.aid)
      local bi, bg = index(kept.bid)
      local old = gi == ai and kept.a or kept.b
      print(f, "ghost reuses a freed slot", gi == ai or gi == bi, "with a newer generation", gg > (gi == ai and ag or bg))
      print(f, "old handle of that slot alive", old:alive(), "state", old:state(), "equal to ghost", old == g)
      try(f, "old handle setPosition", function() old:setPosition(1, 2, 3) end)
    elseif f == 5 then
      print(f, "ghost alive", kept.ghost:alive(), "state", kept.ghost:state())
      print(f, "find ghost", ctx.find("ghost"))
      -- Detached instances are destroyed at the flush, before the
      -- settlement of killed entities.
      print(f, "kill last", ctx.find("last"):kill())
      kept.kid:detach("probe")
      print(f, "detached kid's probe")
    elseif f == 6 then
      -- Settled now, so that shutdown has nothing left to destroy here
      -- (the shutdown scene covers that).
      print(f, "kill phoenix", ctx.find("phoenix"):kill())
    end
  end,
}
