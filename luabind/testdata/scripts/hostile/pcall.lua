-- hostile/pcall.lua: an endless loop inside pcall, retried forever: pcall cannot swallow the budget.
return {
  onUpdate = function(self, ctx)
    while true do
      pcall(function() while true do end end)
    end
  end,
}
