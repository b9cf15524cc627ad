-- helper/bbreader.lua: reads, in its own Lua state, what api/blackboard
-- stored, changes its copy, and writes an entity handle back.
return {
  onCreate = function(self, ctx)
    local t = ctx.blackboard.t
    ctx.blackboard.readerSaw = t.list[3]
    t.list[3] = 300
    ctx.blackboard.fromReader = { back = t.who, name = t.who:name() }
  end,
}
