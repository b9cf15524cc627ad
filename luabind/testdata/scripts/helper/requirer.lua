-- helper/requirer.lua: requires lib.counter in its own state.
return {
  onCreate = function(self, ctx)
    local c = require("lib.counter")
    ctx.blackboard.other = { loads = c.loads, mark = tostring(c.mark) }
  end,
}
