-- Entity values: id, name, alive, state, the transform (committed reads,
-- cached writes), attach, equality and table keys.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local e = ctx.entity
    check.truthy(e:id():match("^entity%(%d+:%d+%)$"), "e:id() form: " .. e:id())
    check.eq(tostring(e), e:id(), "tostring is the id")
    check.eq(type(e), "userdata", "entity values are userdata")
    check.eq(getmetatable(e), "entity", "with a protected metatable")
    check.eq(e:name(), "subject", "e:name()")
    check.eq(e:alive(), true, "e:alive()")
    check.eq(e:state(), "pending", "not activated yet during onCreate")

    local x, y, z = e:position()
    check.vec(x, y, z, 0, 0, 0, "default position")
    x, y, z = e:rotation()
    check.vec(x, y, z, 0, 0, 0, "default rotation")
    x, y, z = e:scale()
    check.vec(x, y, z, 1, 1, 1, "default scale")
    -- outside a frame, a write is committed at once
    e:setPosition(1, 2, 3)
    x, y, z = e:position()
    check.vec(x, y, z, 1, 2, 3, "a write during setup")

    self.other = ctx.spawn({ name = "other" })
  end,

  onUpdate = function(self, ctx)
    local e = ctx.entity
    if ctx.frame == 1 then
      check.eq(e:state(), "active", "active in frame 1")
      e:setPosition(4, 5, 6)
      local x, y, z = e:position()
      check.vec(x, y, z, 1, 2, 3, "a write in a frame is cached: reads see the committed value")
      e:setPosition(7, 8, 9)
      e:setRotation(0, 90, 0)
      e:setScale(2, 3, 4)
      x, y, z = e:rotation()
      check.vec(x, y, z, 0, 0, 0, "rotation not committed yet")
      self.other:setPosition(-1, -1, -1)

      -- equality and keys
      local a, b = ctx.find("subject"), ctx.find("subject")
      check.truthy(a == b, "two values of one handle are ==")
      check.truthy(not rawequal(a, b), "though they are two values")
      check.truthy(a == e, "and equal ctx.entity")
      check.truthy(e ~= self.other, "different entities differ")
      check.truthy(e ~= e:id(), "an entity is not its id")
      local seen = { [a:id()] = "yes" }
      check.eq(seen[b:id()], "yes", "e:id() is a table key")
      check.eq(seen[self.other:id()], nil, "of that entity only")

      -- attach runs onCreate now
      e:attach("helper/probe", { tag = "att" })
      check.eq(ctx.blackboard["created.att"], 1, "e:attach runs onCreate at once")
    elseif ctx.frame == 2 then
      local x, y, z = e:position()
      check.vec(x, y, z, 7, 8, 9, "committed at the flush; the last write wins")
      x, y, z = e:rotation()
      check.vec(x, y, z, 0, 90, 0, "rotation committed")
      x, y, z = e:scale()
      check.vec(x, y, z, 2, 3, 4, "scale committed")
      x, y, z = self.other:position()
      check.vec(x, y, z, -1, -1, -1, "another entity's transform")
      check.eq(ctx.blackboard["first.att"], nil, "it runs after us")
    elseif ctx.frame == 3 then
      check.eq(ctx.blackboard["first.att"], 2, "an instance attached in a frame updates from the next one")
      done()
    end
  end,
}
