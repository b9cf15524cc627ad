-- budget/blocker.lua: calls a registered Go function that blocks, which
-- no count of work sees: the wall-clock backstop stops it.
return {
  onUpdate = function(self, ctx)
    block()
    block()
  end,
}
