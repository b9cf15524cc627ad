-- life: spawns critters, kills them, asks queries and draws random
-- numbers every frame, printing what it does; a world of it continued
-- from a snapshot must print what the world that never stopped prints.
return {
  onUpdate = function(self, ctx, dt)
    if math.random() < 0.4 then
      local x, z = math.random(-20, 20), math.random(-20, 20)
      local c = ctx.spawn{ position = { x, 0, z }, tags = { "critter" }, scripts = { "critter" } }
      self.last = c
    end
    local all = ctx.query{ tag = "critter" }
    if #all > 3 and math.random() < 0.3 then
      local victim = all[math.random(1, #all)]
      print(ctx.frame, "kill", victim:id())
      victim:kill()
    end
    if ctx.frame % 10 == 0 then
      local near = ctx.query{ tag = "critter", near = { 0, 0, 0 }, radius = 10 }
      print(ctx.frame, "critters", #all, "near", #near, "bb", ctx.blackboard.grown or 0)
    end
  end,
}
