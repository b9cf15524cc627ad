-- hotreload/order at priority -1: prints its label property every frame.
return {
  priority = -1,
  properties = { label = "?" },
  onUpdate = function(self, ctx)
    print(self.label)
  end,
}
