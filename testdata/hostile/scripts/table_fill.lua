-- Allocating without end within one callback: the memory limit or the
-- budget stops it long before the process runs out of memory.
return {
  onUpdate = function(self, ctx)
    local t, i = {}, 0
    while true do
      i = i + 1
      t[i] = { i }
    end
  end,
}
