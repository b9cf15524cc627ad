-- hostile/wrap.lua: an endless loop inside coroutine.wrap.
return {
  onUpdate = function(self, ctx)
    coroutine.wrap(function() while true do end end)()
  end,
}
