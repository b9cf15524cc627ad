-- messages/coroutine_index.lua: an error inside a coroutine names its
-- culprit like any other (every coroutine runs with the error mapper's
-- hook).
-- want: 8: attempt to index a nil value (local 't')
return {
  onCreate = function(self, ctx)
    local co = coroutine.create(function()
      local t; return t.x
    end)
    local ok, err = coroutine.resume(co)
    assert(not ok)
    error(err, 0)
  end,
}
