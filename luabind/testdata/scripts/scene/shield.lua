-- scene/shield: sees every hit first (priority -1) and blocks the even
-- bullets: the scoreboard then never hears of them.
return {
  priority = -1,
  events = {
    hit = function(self, ctx, data, ev)
      if data.bullet % 2 == 0 then
        print("shield: blocks bullet" .. data.bullet)
        ev:stop()
        return nil
      end
      return { bullet = data.bullet, x = data.x, damage = 10 }
    end,
  },
}
