-- pcall cannot catch the budget: an endless loop that wraps a runaway
-- call in pcall is stopped like a bare one.
return {
  onUpdate = function(self, ctx)
    while true do
      pcall(function() while true do end end)
    end
  end,
}
