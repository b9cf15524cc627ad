-- messages/arg_wrap.lua: coroutine.wrap refuses a Go function itself,
-- named as it was called, not as the coroutine.create it calls.
-- want: 6: bad argument #1 to 'coroutine.wrap' (Lua function expected)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(coroutine.wrap, print)
    assert(not ok)
    error(err, 0)
  end,
}
