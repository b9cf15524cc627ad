-- messages/index_upvalue.lua: indexing a nil upvalue names the upvalue.
-- want: 7: attempt to index a nil value (upvalue 'settings')
local settings
return {
  onCreate = function(self, ctx)
    local n = 1
    n = n + settings.volume
  end,
}
