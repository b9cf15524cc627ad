-- helper/badresult.lua: an event handler whose result is not plain data.
return {
  events = {
    ask = function(self, ctx, data)
      return function() end
    end,
  },
}
