-- A function the sandbox does not offer: os keeps only time, clock, date
-- and difftime.
return {
  onDestroy = function(self, ctx)
    os.exit(1)
  end,
}
-- want: 5:8: warning: unknown os member 'exit'
