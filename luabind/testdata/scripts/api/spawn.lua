-- ctx.spawn and ctx.find: an entity spawned during a frame is Pending
-- until the frame's flush (its scripts are created at once, its first
-- onUpdate is in the next frame); one spawned during setup is Active
-- before the first frame.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local early = ctx.spawn({ name = "early", scripts = { { script = "helper/probe", props = { tag = "early" } } } })
    check.eq(early:state(), "pending", "spawned during setup")
    check.eq(ctx.blackboard["created.early"], 0, "its onCreate ran at once, during setup")
    self.early = early
  end,

  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    if ctx.frame == 1 then
      check.eq(self.early:state(), "active", "a setup spawn is active in frame 1")
      local kid = ctx.spawn({
        name = "kid",
        position = { 1, 2, 3 },
        rotation = { x = 0, y = 90, z = 0 },
        scale = { 2, 2, 2 },
        scripts = { "helper/probe", { script = "helper/probe", props = { tag = "b" } } },
      })
      check.eq(kid:state(), "pending", "Pending until the flush")
      check.eq(kid:name(), "kid", "spec.name")
      check.eq(ctx.find("kid"), kid, "ctx.find sees it at once")
      check.same({ kid:position() }, { 1, 2, 3 }, "the spec's placement is readable at once")
      check.same({ kid:rotation() }, { 0, 90, 0 }, "rotation too")
      check.same({ kid:scale() }, { 2, 2, 2 }, "scale too")
      check.eq(bb["created.probe"], 1, "its scripts are created at once")
      check.eq(bb["created.b"], 1, "with their props")
      self.kid = kid
      local bare = ctx.spawn()
      check.eq(bare:name(), nil, "no spec: an unnamed entity")
      check.eq(bare:state(), "pending", "also Pending")
      self.bare = bare

      check.fails("unknown spec field", ctx.spawn, { bogus = 1 })
      check.fails('script "helper/nope" not found', ctx.spawn, { name = "ghost", scripts = { "helper/nope" } })
      check.eq(ctx.find("ghost"), nil, "a failed spawn leaves nothing to find, even before the flush")
    elseif ctx.frame == 2 then
      check.eq(self.kid:state(), "active", "active after the flush")
      check.eq(self.bare:state(), "active", "also the bare one")
      local x, y, z = self.kid:position()
      check.vec(x, y, z, 1, 2, 3, "spec.position")
      x, y, z = self.kid:rotation()
      check.vec(x, y, z, 0, 90, 0, "spec.rotation")
      x, y, z = self.kid:scale()
      check.vec(x, y, z, 2, 2, 2, "spec.scale")
      check.eq(bb["first.b"], nil, "the kid runs after us: no onUpdate yet")
      check.eq(bb["first.early"], 1, "the setup spawn's first onUpdate was in frame 1")
      check.eq(ctx.find("ghost"), nil, "a failed spawn leaves no entity")
      check.eq(ctx.find("nobody"), nil, "ctx.find of an unknown name")
      check.eq(ctx.find("subject"), ctx.entity, "ctx.find")
    elseif ctx.frame == 3 then
      check.eq(bb["first.b"], 2, "first onUpdate in the frame after the spawn")
      check.eq(bb["first.probe"], 2, "for every script of it")
      done()
    end
  end,
}
