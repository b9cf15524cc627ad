-- a tracer of priority -1
return {
  priority = -1,
  properties = { tag = "?" },
  onUpdate = function(self, ctx) print(self.tag) end,
}
