-- hostile/boss.lua: spends most of its budget (ctx.blackboard.spend
-- seconds), then attaches 200 scripts with a small onCreate. The time the
-- boss used is its own: none of the small onCreates is blamed for it.
return {
  onUpdate = function(self, ctx)
    local start = os.clock()
    while os.clock() - start < ctx.blackboard.spend do end
    for i = 1, 200 do
      ctx.entity:attach("helper/small")
    end
    print("boss attached 200")
  end,
}
