-- A read of a self field nothing sets: damge for damage.
return {
  properties = { damage = 7 },
  events = {
    hit = function(self, ctx, data, ev)
      ctx.log("hit for", self.damge)
    end,
  },
}
-- want: 6:31: warning: self.damge is never set (not in properties, and no code of the script writes it); did you mean self.damage?
