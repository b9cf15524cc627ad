-- messages/coroutine_index.lua: an error inside a coroutine is worded like
-- reference Lua, but names no culprit: gopher-lua raises it where the
-- mapper cannot see the failing frame (docs/lua-api.md, section 10).
-- want: 7: attempt to index a nil value
return {
  onCreate = function(self, ctx)
    local co = coroutine.create(function() local t; return t.x end)
    local ok, err = coroutine.resume(co)
    assert(not ok)
    error(err, 0)
  end,
}
