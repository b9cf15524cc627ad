-- embed/crasher.lua: calls the Go function crash, which panics.
return {
  onUpdate = function(self, ctx)
    crash()
    print("not reached")
  end,
}
