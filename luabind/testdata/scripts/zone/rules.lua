-- rules probes the zoned rules. The actor, every frame, prints what it
-- reads of the entity "b" and of the blackboard; in frame 1 it sends b
-- an event and writes the blackboard, in frame 2 it kills b. The target
-- b tags itself and moves in frame 1. Under zoned rules the actor reads
-- the state at the start of each frame, and its effects arrive at the
-- start of the next, whichever of the two updates first.
return {
  onUpdate = function(self, ctx)
    if self.role ~= "actor" then
      if ctx.frame == 1 then
        ctx.entity:tag("hot")
        ctx.entity:setPosition(5, 0, 0)
      end
      return
    end
    local b = ctx.find("b")
    if ctx.frame == 1 then
      b:send("poke", ctx.frame)
      ctx.blackboard.k = ctx.frame
    end
    if ctx.frame == 2 then print("actor kills", b:kill()) end
    print("actor frame", ctx.frame, "hot", b:hasTag("hot"), "k", ctx.blackboard.k, "at", b:position())
  end,
  onDestroy = function(self, ctx) print(self.role, "destroyed in", ctx.frame) end,
  events = { poke = function(self, ctx, data) print("poked", data, "in", ctx.frame) end },
}
