-- Another script (another Lua state): sees what the writer stored, in the
-- same frame, as its own copies.
local dump = require("lib.dump")
return {
  priority = 1,
  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    local f = ctx.frame
    if f == 1 then
      print(f, "reader sees list", dump(bb.list), "cfg.speed", bb.cfg.speed)
      print(f, "reader sees who", bb.who:name(), bb.who == ctx.find("hero"))
      print(f, "reader sees team", bb.team.lead:name(), bb.team.size)
      bb.counter = 1
    else
      bb.counter = bb.counter + 1
    end
  end,
}
