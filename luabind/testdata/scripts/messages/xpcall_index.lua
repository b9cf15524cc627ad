-- messages/xpcall_index.lua: the handler of xpcall gets the message that
-- names the culprit.
-- want: 7: attempt to call a nil value (field 'nope')
return {
  onCreate = function(self, ctx)
    local ok, err = xpcall(function()
      return ctx.nope()
    end, function(m) return m end)
    assert(not ok)
    error(err, 0)
  end,
}
