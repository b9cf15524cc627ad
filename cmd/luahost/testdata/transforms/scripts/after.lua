-- Priority 5: reads m after the mover wrote it; on plain, in frame 3, it
-- also writes m, after the mover.
local fmt = require("lib.fmt")
return {
  priority = 5,
  onUpdate = function(self, ctx)
    local m = ctx.find("m")
    local name = ctx.entity:name()
    print(ctx.frame, "after on " .. name .. " reads m", fmt.v(m:position()), "scale", fmt.v(m:scale()), "rotation", fmt.v(m:rotation()))
    if name == "plain" then
      print(ctx.frame, "plain at", fmt.v(ctx.entity:position()))
      -- Another script writes m too: it runs after the mover, so its write
      -- is the last one of frame 3.
      if ctx.frame == 3 then
        m:setPosition(-1, -1, -1)
      end
    end
  end,
}
