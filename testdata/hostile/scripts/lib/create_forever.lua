-- An onCreate that never returns: the nested callback of nested_attach.
return {
  onCreate = function(self, ctx)
    while true do end
  end,
}
