-- An onUpdate that never returns is stopped at its budget and faulted; the
-- frame goes on.
return {
  onUpdate = function(self, ctx)
    while true do end
  end,
}
