-- A misspelt standard library function.
return {
  properties = { x = 2.5 },
  onUpdate = function(self, ctx, dt)
    print(math.florr(self.x))
  end,
}
-- want: 5:16: warning: unknown math member 'florr'; did you mean 'floor'?
