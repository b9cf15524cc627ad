-- Spawns enemies tagged "enemy".
return {
  onCreate = function(self, ctx)
    ctx.spawn{ name = "orc", tags = { "enemy" }, scripts = { "tower" } }
  end,
}
