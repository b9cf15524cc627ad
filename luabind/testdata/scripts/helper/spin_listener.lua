-- helper/spin_listener.lua: an event handler that never returns.
return {
  events = {
    spin = function(self, ctx, data)
      while true do end
    end,
  },
}
