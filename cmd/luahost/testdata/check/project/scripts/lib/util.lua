-- A module: it returns a table of functions, not a script table.
local util = {}

function util.clamp(v, lo, hi)
  return math.max(lo, math.min(hi, v))
end

return util
