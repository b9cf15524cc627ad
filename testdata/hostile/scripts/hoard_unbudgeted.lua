-- Builds 1 MB strings in a loop and keeps them all, run with --budget 0:
-- the memory limit does not depend on the work budget, so it stops the
-- callback long before the process grows by gigabytes.
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
