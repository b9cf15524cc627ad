-- messages/arg_pcall_library.lua: a library function called by pcall,
-- with no call site to name it, is named '?' and its message has no
-- position, as in Lua 5.1: the error is reported where error raises it
-- again.
-- want: 10: bad argument #1 to '?' (string expected, got table)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(string.rep, {})
    assert(not ok)
    error(err, 0)
  end,
}
