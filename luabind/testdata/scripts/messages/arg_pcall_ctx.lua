-- messages/arg_pcall_ctx.lua: ctx's functions called by pcall are named
-- "ctx.NAME".
-- want: 6: bad argument #1 to 'ctx.emit' (event name must be a string, not nil)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(ctx.emit, nil, {})
    assert(not ok)
    error(err, 0)
  end,
}
