-- Coroutines created without end, each parked mid-loop: stopped like any
-- other runaway.
return {
  onUpdate = function(self, ctx)
    local all = {}
    while true do
      local co = coroutine.create(function()
        while true do coroutine.yield() end
      end)
      coroutine.resume(co)
      all[#all + 1] = co
    end
  end,
}
