-- messages/call_upvalue.lua: calling a number upvalue names the upvalue and the type.
-- want: 6: attempt to call a number value (upvalue 'handler')
local handler = 7
return {
  onCreate = function(self, ctx)
    handler(ctx)
  end,
}
