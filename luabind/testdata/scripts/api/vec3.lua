-- vec3: fields, operators, methods, tostring; entity setters
-- take a vector or a table; vectors are plain data that come back as
-- vectors from the blackboard, events and properties.
local check = require("lib.check")

local function isVec(v) return getmetatable(v) == "vec3" end

return {
  properties = { home = vec3(1, 2, 3) },

  onCreate = function(self, ctx)
    check.truthy(isVec(self.home), "a vector property is a vector in self")
    check.eq(self.home, vec3(1, 2, 3), "and equal to its default")
    self.peer = ctx.spawn({ scripts = { "helper/vecpeer" } })
  end,

  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      local a, b = vec3(1, 2, 3), vec3(4, 5, 6)
      check.vec(a.x, a.y, a.z, 1, 2, 3, "fields")
      check.eq(tostring(a), "vec3(1, 2, 3)", "tostring")
      check.eq(tostring(vec3(0.5, -1, 1e20)), "vec3(0.5, -1, 1e+20)", "tostring of fractions")
      check.eq(tostring(vec3()), "vec3(0, 0, 0)", "missing numbers are 0")
      check.eq(vec3({ 7, 8, 9 }), vec3(7, 8, 9), "vec3 of {x, y, z}")
      check.eq(vec3({ x = 7, z = 9 }), vec3(7, 0, 9), "vec3 of {x=, z=}")
      check.eq(a + b, vec3(5, 7, 9), "+")
      check.eq(b - a, vec3(3, 3, 3), "-")
      check.eq(a * 2, vec3(2, 4, 6), "* scalar")
      check.eq(2 * a, vec3(2, 4, 6), "scalar *")
      check.eq(a * b, vec3(4, 10, 18), "* componentwise")
      check.eq(b / 2, vec3(2, 2.5, 3), "/ scalar")
      check.eq(a + 1, vec3(2, 3, 4), "+ scalar")
      check.eq(-a, vec3(-1, -2, -3), "unary -")
      check.truthy(a ~= b, "~=")
      check.eq(vec3(3, 4, 0):length(), 5, "length")
      check.eq(vec3(0, 0, 2):normalized(), vec3(0, 0, 1), "normalized")
      check.eq(vec3():normalized(), vec3(), "the zero vector normalized")
      check.eq(a:dot(b), 32, "dot")
      check.eq(vec3(1, 0, 0):cross(vec3(0, 1, 0)), vec3(0, 0, 1), "cross")
      check.eq(vec3(1, 1, 1):distance(vec3(4, 5, 1)), 5, "distance")
      check.eq(a:lerp(b, 0.5), vec3(2.5, 3.5, 4.5), "lerp")
      check.eq(a:dot({ 1, 1, 1 }), 6, "a method takes a table too")
      check.same(check.pack(a:unpack()), { n = 3, 1, 2, 3 }, "unpack")
      check.eq("at " .. a, "at vec3(1, 2, 3)", "..")
      a.x = 10
      check.eq(a.x, 10, "fields can be written")
      check.fails("it has only x, y and z", function() a.w = 1 end)
      check.fails("a vec3 takes a vec3 or a number", function() return a + {} end)
      check.fails("vec3 expected", function() return a.length({}) end)
      check.fails("want a vec3 or {x, y, z}", function() return a:dot(5) end)

      -- entity methods taking x, y, z take one vector or table too
      local e = ctx.entity
      e:setPosition(vec3(1, 2, 3))
      e:setRotation({ 0, 90, 0 })
      e:setScale({ x = 2, y = 2, z = 2 })
      check.fails("number expected", function() e:setPosition(1) end)
      check.eq(vec3(e:position()), vec3(0, 0, 0), "a write is committed at the flush")

      -- plain data: blackboard, events, spawn
      ctx.blackboard.spot = { at = vec3(3, 4, 0), list = { vec3(1, 1, 1) } }
      local spot = ctx.blackboard.spot
      check.truthy(isVec(spot.at) and isVec(spot.list[1]), "vectors come back from the blackboard as vectors")
      check.eq(spot.at:length(), 5, "with their values")
      ctx.emit("vec", { at = vec3(3, 4, 0) })
      check.eq(ctx.blackboard.peerSawVector, true, "another state receives a vector")
      local s = ctx.spawn({ position = vec3(5, 6, 7) })
      check.eq(vec3(s:position()), vec3(5, 6, 7), "spawn takes a vector position")
    elseif ctx.frame == 2 then
      local e = ctx.entity
      check.eq(vec3(e:position()), vec3(1, 2, 3), "setPosition(vec3)")
      check.eq(vec3(e:rotation()), vec3(0, 90, 0), "setRotation({x, y, z})")
      check.eq(vec3(e:scale()), vec3(2, 2, 2), "setScale({x=, y=, z=})")
      done()
    end
  end,
}
