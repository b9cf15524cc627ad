-- A misspelt method on an entity kept in a local.
return {
  onUpdate = function(self, ctx, dt)
    local boss = ctx.find("boss")
    if boss then boss:kil() end
  end,
}
-- want: 5:23: warning: unknown entity member 'kil'; did you mean 'kill'?
