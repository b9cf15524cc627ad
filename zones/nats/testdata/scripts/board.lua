-- board writes the blackboard key "from<zone>" and, in frame 1, the key
-- "shared" with its zone's number, and prints every frame what it reads
-- of both: a write is visible to the writer at once, to other zones from
-- the next frame; two zones writing one key in one frame: the higher
-- zone's write wins everywhere.
return {
  onUpdate = function(self, ctx)
    local z = ctx.entity:zone()
    local other = ctx.blackboard["from" .. (1 - z)]
    print(string.format("frame %d zone %d other %s shared %s", ctx.frame, z, tostring(other), tostring(ctx.blackboard.shared)))
    ctx.blackboard["from" .. z] = ctx.frame
    if ctx.frame == 1 then ctx.blackboard.shared = z end
  end,
}
