-- messages/arg_pcall_global.lua: a global function called by pcall is
-- named by its global name.
-- want: 6: bad argument #2 to 'tonumber' (base out of range)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(tonumber, "1", 99)
    assert(not ok)
    error(err, 0)
  end,
}
