-- messages/call_method.lua: calling a method the entity does not have
-- names the method.
-- want: 6: attempt to call a nil value (method 'setPos')
return {
  onCreate = function(self, ctx)
    ctx.entity:setPos(1, 2, 3)
  end,
}
