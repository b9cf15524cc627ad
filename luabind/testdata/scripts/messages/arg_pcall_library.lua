-- messages/arg_pcall_library.lua: a library function called by pcall,
-- with no call site to name it, is named as reference Lua 5.4 names it:
-- by its library and name.
-- want: 7: bad argument #1 to 'string.rep' (string expected, got table)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(string.rep, {})
    assert(not ok)
    error(err, 0)
  end,
}
