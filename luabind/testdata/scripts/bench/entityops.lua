-- The entity API's micro-benchmark: each onUpdate runs self.n operations
-- of the kind self.op names, so that one call's cost is the loop's over n.
return {
  properties = { n = 1000, op = "entity" },
  onUpdate = function(self, ctx, dt)
    local n, op = self.n, self.op
    if op == "entity" then
      for _ = 1, n do local _ = ctx.entity end
    elseif op == "position" then
      local e = ctx.entity
      for _ = 1, n do local _, _, _ = e:position() end
    elseif op == "setPosition" then
      local e = ctx.entity
      for i = 1, n do e:setPosition(i, 2, 3) end
    elseif op == "vecadd" then
      local v = vec3(1, 2, 3)
      for _ = 1, n do local _ = v + v end
    elseif op == "numadd" then
      local x, y, z = 1, 2, 3
      for _ = 1, n do local _, _, _ = x + x, y + y, z + z end
    end
  end,
}
