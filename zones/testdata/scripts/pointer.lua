-- pointer writes a table holding its own entity value to the blackboard
-- in frame 1 and prints in frame 2 what each zone's key holds: its own
-- zone's value still holds an entity, the other zone's holds that
-- entity's string id (a handle names an entity of one runtime only).
return {
  onUpdate = function(self, ctx)
    local z = ctx.entity:zone()
    if ctx.frame == 1 then ctx.blackboard["e" .. z] = { who = ctx.entity } end
    if ctx.frame == 2 then
      print("zone", z, "own", type(ctx.blackboard["e" .. z].who), "other", type(ctx.blackboard["e" .. (1 - z)].who), tostring(ctx.blackboard["e" .. (1 - z)].who))
    end
  end,
}
