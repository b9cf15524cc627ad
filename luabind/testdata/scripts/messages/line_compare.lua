-- messages/line_compare.lua: a comparison in a condition over several
-- lines fails at the line of its operator.
-- want: 8: attempt to compare nil with number
local cfg = { on = true }
return {
  onCreate = function(self, ctx)
    if cfg.on and cfg.speed
      < 3 then print("slow") end
  end,
}
