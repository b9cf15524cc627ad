-- hostile/yield.lua: a coroutine that yields forever, resumed forever.
return {
  onUpdate = function(self, ctx)
    local gen = coroutine.wrap(function() while true do coroutine.yield(1) end end)
    while true do gen() end
  end,
}
