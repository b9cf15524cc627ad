-- messages/arg_function.lua: a plain call counts every argument; the
-- function is named as the call site names it.
-- want: 6: bad argument #1 to 'find' (string expected, got table)
return {
  onCreate = function(self, ctx)
    ctx.find({})
  end,
}
