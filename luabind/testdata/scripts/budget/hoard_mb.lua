-- budget/hoard_mb.lua: builds 1 MB strings in a loop and keeps them all.
-- With the work budget off, the memory limit alone stops it.
return {
  onUpdate = function(self, ctx)
    local kept = {}
    local i = 0
    while true do
      i = i + 1
      kept[i] = string.rep("x", 1048575) .. i
    end
  end,
}
