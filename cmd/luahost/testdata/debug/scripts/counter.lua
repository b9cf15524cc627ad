-- A script to debug: breakpoints, locals, upvalues, self and steps.
local step = 2

local function bump(n)
  local next = n + step
  return next
end

return {
  properties = { count = 0, name = "c" },
  onUpdate = function(self, ctx, dt)
    local before = self.count
    self.count = bump(before)
    if self.count > 4 then
      error("too many: " .. self.count)
    end
  end,
}
