-- messages/arg_pcall_global.lua: a global function of Lua 5.1's called by
-- pcall is named '?' and its message has no position, as in Lua 5.1: the
-- error is reported where error raises it again.
-- want: 9: bad argument #2 to '?' (base out of range)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(tonumber, "1", 99)
    assert(not ok)
    error(err, 0)
  end,
}
