-- messages/compare_nil.lua: comparing a nil field of an upvalue table with
-- a number names the two types, as reference Lua does.
-- want: 7: attempt to compare nil with number
local cfg = {}
return {
  onCreate = function(self, ctx)
    if cfg.speed < 3 then print("slow") end
  end,
}
