-- tower looks for the nearest enemy in range every few frames, kills a
-- weak one outright (and tells the base and the enemy's spawner), and
-- else sends it damage drawn from math.random. It reads the score the
-- base keeps on the blackboard.
return {
  properties = { range = 14, reload = 3 },
  onUpdate = function(self, ctx)
    self.cool = (self.cool or 0) - 1
    if self.cool > 0 then return end
    local near = ctx.query({ tag = "enemy", near = ctx.entity, radius = self.range, limit = 1 })
    local target = near[1]
    if not target then return end
    self.cool = self.reload
    local tx = target:position()
    if target:hasTag("weak") then
      if target:kill() then
        print("tower", ctx.entity:name(), "kills", target:name(), "at", string.format("%.2f", tx), "score", ctx.blackboard.score)
        ctx.find("base"):send("kill", { by = ctx.entity, victim = target:name() })
        ctx.find("spawner"):send("killed", { by = ctx.entity, victim = target:name() })
      end
      return
    end
    target:send("damage", { amount = math.random(1, 4), by = ctx.entity })
  end,
}
