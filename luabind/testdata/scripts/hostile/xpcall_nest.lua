-- hostile/xpcall_nest.lua: an endless loop under 3,000 nested xpcalls,
-- each with a Lua handler. The budget's stop passes every xpcall at
-- once: caught, it was raised again at each level, the handler run and
-- the whole stack traced each time, and the stop took minutes.
local left = 3000
local function handler(m) return m end
local function nest()
  if left == 0 then
    while true do end
  end
  left = left - 1
  local ok, err = xpcall(nest, handler)
  return err
end

return {
  onUpdate = function(self, ctx)
    nest()
  end,
}
