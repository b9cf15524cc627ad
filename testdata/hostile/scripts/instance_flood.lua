-- 100,000 instances on one entity, attached over five frames, then the
-- entity killed: taking each instance off its entity searched and
-- shifted the entity's whole list, so that one flush took over a minute.
-- It takes a fraction of a second.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      self.target = ctx.spawn({ name = "target" })
    end
    if ctx.frame <= 5 then
      for _ = 1, 20000 do
        self.target:attach("lib/idle")
      end
    elseif ctx.frame == 6 then
      self.target:kill()
    else
      error("flushed: " .. tostring(self.target:alive()))
    end
  end,
}
