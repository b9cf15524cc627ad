-- Prints "ready" in frame 1, then never returns: from frame 2 on in
-- onUpdate, and in onDestroy at shutdown. With budgets off only a second
-- signal can stop it.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      print("ready")
      return
    end
    while true do end
  end,
  onDestroy = function(self, ctx)
    while true do end
  end,
}
