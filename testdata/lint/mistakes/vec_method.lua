-- A misspelt vector method.
return {
  onUpdate = function(self, ctx, dt)
    local v = vec3(ctx.entity:position())
    print(v:lenght())
  end,
}
-- want: 5:13: warning: unknown vec3 member 'lenght'; did you mean 'length'?
