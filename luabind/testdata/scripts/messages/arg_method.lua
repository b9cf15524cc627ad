-- messages/arg_method.lua: a method call does not count self: the first
-- argument of e:setPosition is #1.
-- want: 6: bad argument #1 to 'setPosition' (number expected, got string)
return {
  onCreate = function(self, ctx)
    ctx.entity:setPosition("left", 2, 3)
  end,
}
