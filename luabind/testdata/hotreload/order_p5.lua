-- hotreload/order at priority 5: prints its label property every frame.
return {
  priority = 5,
  properties = { label = "?" },
  onUpdate = function(self, ctx)
    print(self.label)
  end,
}
