-- hotreload/spinner, variant b: the benchmark's script; the two variants
-- differ only in the mark they print, so every save is a change.
return {
  properties = { speed = 90 },
  onCreate = function(self, ctx)
    self.angle = 0
  end,
  onUpdate = function(self, ctx, dt)
    self.angle = self.angle + self.speed * dt
    print("b")
  end,
}
