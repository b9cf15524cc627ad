-- messages/arg_mask.lua: e:send counts its arguments without self, reads
-- a mask given as a numeric string, and refuses one that is not.
-- want: 8: bad argument #3 to 'send' (number expected, got string)
return {
  onCreate = function(self, ctx)
    local e = ctx.entity
    e:send("ping", nil, "0x1")
    e:send("ping", nil, "all")
  end,
}
