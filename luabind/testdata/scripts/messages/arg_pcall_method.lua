-- messages/arg_pcall_method.lua: an entity method called by pcall
-- without its entity is named by the method's name.
-- want: 6: bad argument #1 to 'position' (entity expected, got no value)
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(ctx.entity.position)
    assert(not ok)
    error(err, 0)
  end,
}
