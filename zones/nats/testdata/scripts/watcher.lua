-- watcher keeps the entity value of the entity called self.target and
-- prints every frame what it answers: alive and zone while the entity
-- lives, in this zone or another; its position only while it is here.
return {
  onCreate = function(self, ctx) self.seen = ctx.find(self.target) end,
  onUpdate = function(self, ctx)
    local e = self.seen
    print("frame", ctx.frame, e:alive(), e:zone(), pcall(e.position, e))
  end,
}
