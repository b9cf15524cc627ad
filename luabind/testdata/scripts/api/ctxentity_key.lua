-- ctx.entity written through a key computed at run time, which the
-- compile step cannot see: the write lasts until the callback ends, and
-- the instance's next callback finds its own entity again.
local check = require("lib.check")

return {
  onUpdate = function(self, ctx)
    check.eq(ctx.entity:name(), "subject", "the instance's own entity, frame " .. ctx.frame)
    if ctx.frame == 1 then
      local k = "entity"
      ctx[k] = "forged"
      check.eq(ctx.entity, "forged", "within the callback that wrote it")
    end
    if ctx.frame == 2 then done() end
  end,
}
