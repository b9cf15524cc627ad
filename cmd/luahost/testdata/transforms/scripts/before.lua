-- Priority -5: reads m before the mover writes it.
local fmt = require("lib.fmt")
return {
  priority = -5,
  onUpdate = function(self, ctx)
    local m = ctx.find("m")
    print(ctx.frame, "before reads m", fmt.v(m:position()))
  end,
}
