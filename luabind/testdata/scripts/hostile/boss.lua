-- hostile/boss.lua: spends most of its budget (ctx.blackboard.spend
-- iterations of an empty loop, one instruction each), then attaches 200
-- scripts with a small onCreate. The work the boss did is its own: none
-- of the small onCreates is blamed for it.
return {
  onUpdate = function(self, ctx)
    for _ = 1, ctx.blackboard.spend do end
    for i = 1, 200 do
      ctx.entity:attach("helper/small")
    end
    print("boss attached 200")
  end,
}
