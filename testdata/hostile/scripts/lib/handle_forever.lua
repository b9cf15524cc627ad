-- An event handler that never returns: the nested callback of nested_emit.
return {
  events = {
    spin = function(self, ctx, data)
      while true do end
    end,
  },
}
