-- Shows what scene edits change: its entity's name, position and tags,
-- and self.speed, which an instance with keep = true changes itself.
return {
  properties = { speed = 1, keep = false },
  onCreate = function(self, ctx)
    if self.keep then self.speed = 50 end
    print("create", ctx.entity:name(), self.speed)
  end,
  onUpdate = function(self, ctx)
    if ctx.frame % 10 == 0 then
      local x = ctx.entity:position()
      print("state", ctx.entity:name(), self.speed, x, table.concat(ctx.entity:tags(), ","))
    end
  end,
  onDestroy = function(self, ctx) print("destroy", ctx.entity:name()) end,
}
