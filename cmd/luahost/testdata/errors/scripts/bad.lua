-- Fails in onUpdate in frame 2: reported once, then faulted (no more
-- updates, no events), but its onDestroy still runs.
return {
  onUpdate = function(self, ctx)
    print(ctx.frame, "bad update")
    if ctx.frame == 2 then
      local t = nil
      print(t.x)
    end
  end,
  onDestroy = function(self, ctx)
    print(ctx.frame, "bad destroy")
  end,
  events = {
    tick = function(self, ctx, data)
      print(ctx.frame, "bad hears tick", data)
    end,
  },
}
