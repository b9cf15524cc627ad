-- Spends 28 ms of its 30 ms budget (ctx.blackboard.spend seconds), then
-- attaches 200 scripts with a small onCreate (SPEC 13 "Nested
-- callbacks"): the time is the boss's own, so the boss is faulted at its
-- attach line and no small onCreate is ever blamed.
return {
  onUpdate = function(self, ctx)
    local start = os.clock()
    while os.clock() - start < ctx.blackboard.spend do end
    for i = 1, 200 do
      ctx.entity:attach("lib/small_create")
    end
  end,
}
