-- Killed in frame 2; its onDestroy (settlement, in the flush) runs before
-- the write cache is committed, so it still sees m's old position.
local fmt = require("lib.fmt")
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 2 then
      ctx.entity:kill()
    end
  end,
  onDestroy = function(self, ctx)
    print(ctx.frame, "doomed onDestroy reads m", fmt.v(ctx.find("m"):position()))
  end,
}
