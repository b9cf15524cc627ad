-- a tracer of priority 5
return {
  priority = 5,
  properties = { tag = "?" },
  onUpdate = function(self, ctx) print(self.tag) end,
}
