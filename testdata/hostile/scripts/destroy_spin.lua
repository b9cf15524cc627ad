-- An onDestroy that never returns is stopped at shutdown; the other
-- instances still get theirs.
return {
  onDestroy = function(self, ctx)
    while true do end
  end,
}
