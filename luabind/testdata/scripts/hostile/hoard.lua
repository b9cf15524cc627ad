-- hostile/hoard.lua: keeps 8 MiB more in self every frame, each callback
-- well within its budget and memory limit: growth across frames, which
-- only the host's memory ceiling stops.
return {
  onCreate = function(self, ctx) self.t = {} end,
  onUpdate = function(self, ctx)
    self.t[#self.t + 1] = ("x"):rep(2 ^ 23)
  end,
}
