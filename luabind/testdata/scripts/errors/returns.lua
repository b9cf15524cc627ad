-- errors/returns.lua: an event handler whose result is not plain data.
return {
  events = {
    ping = function(self, ctx, data)
      return function() end
    end,
  },
}
