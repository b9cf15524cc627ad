-- hostile/straight_meta.lua: an onUpdate that calls nothing and loops
-- nowhere, so that it is charged its length at once and runs unlooked
-- at, reaches through an __index function a loop that never ends: the
-- loop runs counted, and the budget stops it.
local trap = setmetatable({}, { __index = function()
  while true do end
end })
return {
  onCreate = function(self, ctx) self.trap = trap end,
  onUpdate = function(self, ctx, dt) self.x = self.trap.value end,
}
