-- watch/user: prints the step of lib/step.lua every frame.
local step = require("lib.step")
return {
  onUpdate = function(self, ctx) print("user step", step.size) end,
}
