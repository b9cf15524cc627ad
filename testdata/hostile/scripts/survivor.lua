-- The bystander of every hostile scene: it runs after the attacker in each
-- frame and prints one line per frame and one at shutdown, so a missing
-- line shows that an attack stopped, stalled or faulted the rest of the
-- world.
return {
  priority = 1000,
  onUpdate = function(self, ctx)
    print("survivor", ctx.frame)
  end,
  onDestroy = function(self, ctx)
    print("survivor", "done")
  end,
}
