-- helper/create_spin.lua: an onCreate that never returns, and nothing else.
return {
  onCreate = function(self, ctx)
    while true do end
  end,
}
