-- A misspelt method on the entities a query returns.
return {
  onUpdate = function(self, ctx, dt)
    for _, e in ipairs(ctx.findAll("orc")) do
      e:sendd("hit", 5)
    end
  end,
}
-- want: 5:9: warning: unknown entity member 'sendd'; did you mean 'send'?
