-- helper/hit.lua: handles "hit": records what it got and returns data.n + 1.
return {
  events = {
    hit = function(self, ctx, data, ev)
      ctx.blackboard.hit = { data = data, last = ev.last, mask = ev.mask }
      if data and data.stop == "lua" then ev:stop() end
      return { n = (data and data.n or 0) + 1 }
    end,
  },
}
