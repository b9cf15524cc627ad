-- hostile/coroutine.lua: an endless loop inside a coroutine.
return {
  onUpdate = function(self, ctx)
    local co = coroutine.create(function() while true do end end)
    self.result = { coroutine.resume(co) }
  end,
}
