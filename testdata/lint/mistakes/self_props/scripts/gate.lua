-- In a project whose every attach the linter reads, a self field that
-- neither properties, nor any attach's props, nor the script sets is
-- reported even when no set field has a close name.
return {
  properties = { open = false, opensAt = 0 },
  onUpdate = function(self, ctx, dt)
    if ctx.time >= self.opensAt and self.keyHolder then self.open = true end
  end,
}
-- want: 7:42: warning: self.keyHolder is never set (not in properties, not in any attach's props, and no code of the script writes it)
