-- embed/buyer.lua: calls the Go function buy in onUpdate without catching
-- its error, so that the report carries the Go error (TestGoErrorMatchable).
return {
  onUpdate = function(self, ctx)
    buy("sword")
  end,
}
