-- messages/arg_self.lua: a method called on a self of the wrong type says
-- so, as reference Lua does.
-- want: 7: calling 'position' on bad self (entity expected, got table)
return {
  onCreate = function(self, ctx)
    local t = { position = ctx.entity.position }
    t:position()
  end,
}
