-- embed/panic_coroutine.lua: a Go panic inside a coroutine passes its
-- resume and fails the callback.
return {
  onUpdate = function(self, ctx)
    local co = coroutine.create(function() crash() end)
    local ok, err = coroutine.resume(co)
    print("swallowed", err)
  end,
}
