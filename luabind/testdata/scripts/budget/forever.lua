-- budget/forever.lua: loops for ever in its first frame, which no work
-- budget of the test stops; a frame bounded by a context stops it. Later
-- frames return at once.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      while true do end
    end
    print("forever", ctx.frame)
  end,
  onDestroy = function(self, ctx)
    print("forever done")
  end,
}
