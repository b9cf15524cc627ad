-- lib/tracer.lua: builds a script of the given priority whose onUpdate
-- calls the Go function trace(tag).
return function(priority)
  return {
    priority = priority,
    properties = { tag = "?" },
    onUpdate = function(self, ctx) trace(self.tag) end,
  }
end
