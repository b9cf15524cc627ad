-- messages/arg_wrap.lua: coroutine.wrap refuses a Go function itself, in
-- Lua 5.1's words: called by pcall, it is named '?', and the message has
-- no position (reported where error raises it again).
-- want: 9: bad argument #1 to '?' (Lua function expected)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(coroutine.wrap, print)
    assert(not ok)
    error(err, 0)
  end,
}
