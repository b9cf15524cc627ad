-- hotreload/order at priority 0: prints its label property every frame.
return {
  priority = 0,
  properties = { label = "?" },
  onUpdate = function(self, ctx)
    print(self.label)
  end,
}
