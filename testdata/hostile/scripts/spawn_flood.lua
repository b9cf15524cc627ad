-- Spawning entities without end within one callback.
return {
  onUpdate = function(self, ctx)
    while true do
      ctx.spawn()
    end
  end,
}
