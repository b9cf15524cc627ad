-- Spends all but a few thousand instructions of its 3M budget
-- (ctx.blackboard.spend iterations of an empty loop, one instruction
-- each), then attaches 200 scripts with a small onCreate: the work is the
-- boss's own, so the boss is faulted at its attach line and no small
-- onCreate is ever blamed.
return {
  onUpdate = function(self, ctx)
    for _ = 1, ctx.blackboard.spend do end
    for i = 1, 200 do
      ctx.entity:attach("lib/small_create")
    end
  end,
}
