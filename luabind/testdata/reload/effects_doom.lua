-- reload/effects, a version whose onReload calls the Go function doom,
-- which destroys another instance of the script at once: onReload runs
-- for live instances only.
return {
  properties = { id = 0 },
  onReload = function(self, old, ctx)
    print("onReload", self.id)
    doom(self.id)
  end,
}
