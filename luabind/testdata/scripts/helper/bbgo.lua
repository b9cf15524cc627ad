-- helper/bbgo.lua: reads what Go put on the blackboard, writes back.
return {
  onCreate = function(self, ctx)
    local p = ctx.blackboard.preset
    assert(p.level == 3, "preset.level")
    assert(p.names[2] == "b", "preset.names")
    assert(p.who == ctx.entity, "preset.who")
    ctx.blackboard.fromLua = { n = 1, list = { "a", "b" }, who = ctx.entity, [2.5] = true }
  end,
}
