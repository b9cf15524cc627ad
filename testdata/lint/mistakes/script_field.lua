-- A misspelt callback: onUpdte never runs.
return {
  onUpdte = function(self, ctx, dt)
    print(dt)
  end,
}
-- want: 3:3: warning: onUpdte: unknown field; did you mean onUpdate?
