-- scene/scoreboard: counts the hits the shield lets through; ev.last is
-- the shield's verdict.
return {
  priority = 5,
  events = {
    hit = function(self, ctx, data, ev)
      local score = ctx.blackboard.score + ev.last.damage
      ctx.blackboard.score = score
      local hits = ctx.blackboard.hits or {}
      hits[#hits + 1] = data.bullet
      ctx.blackboard.hits = hits
      print("scoreboard: bullet" .. data.bullet, "scores", ev.last.damage, "total", score)
    end,
  },
  onUpdate = function(self, ctx)
    if ctx.frame == 3 then
      ctx.blackboard.glitch = nil
      local broken = nil
      print("scoreboard: about to fail")
      return broken.field
    end
  end,
  onDestroy = function(self, ctx)
    print("scoreboard: hits", table.concat(ctx.blackboard.hits or {}, ","))
  end,
}
