-- a tracer of priority 0
return {
  priority = 0,
  properties = { tag = "?" },
  onUpdate = function(self, ctx) print(self.tag) end,
}
