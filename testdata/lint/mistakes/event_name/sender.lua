-- Sends "damgae": no script handles it, so the hit is lost in silence.
return {
  onUpdate = function(self, ctx, dt)
    for _, e in ipairs(ctx.query{ tag = "enemy" }) do
      e:send("damgae", 3)
    end
  end,
}
-- want: 5:15: warning: event "damgae" is sent but no script handles it; did you mean "damage"?
