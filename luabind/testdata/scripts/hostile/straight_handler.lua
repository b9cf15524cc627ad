-- hostile/straight_handler.lua: an event handler and a timer callback that
-- call nothing and loop nowhere, so that each is charged its length at
-- once and runs unlooked at, reach through an __index function a loop
-- that never ends: the loop runs counted, and the budget stops it.
local trap = setmetatable({}, { __index = function()
  while true do end
end })
return {
  onCreate = function(self, ctx)
    self.trap = trap
    if self.timer then ctx.after(0.05, "spring") end
  end,
  spring = function(self, ctx) self.x = self.trap.value end,
  events = {
    poke = function(self, ctx, data) self.x = self.trap.value end,
  },
}
