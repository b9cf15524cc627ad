-- A clean script: methods beside the callbacks, a module, a timer that
-- names one of its methods, a top-level global read inside a callback.
local util = require("lib.util")

LIMIT = 10

return {
  properties = { speed = 1, label = "runner", path = { 0, 0, 0 } },
  onCreate = function(self, ctx)
    self.steps = 0
    ctx.every(1, "step")
  end,
  step = function(self, ctx)
    self.steps = util.clamp(self.steps + self.speed, 0, LIMIT)
  end,
}
