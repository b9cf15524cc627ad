-- The fixed version of a script that did not load at start: the
-- instances that waited for it run onCreate when it loads.
return {
  properties = { hp = 1 },
  onCreate = function(self, ctx) print("created", ctx.entity:name(), self.hp) end,
  onUpdate = function(self, ctx, dt) print("update", ctx.entity:name()) end,
}
