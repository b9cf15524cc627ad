-- example/greeter.lua: the script of the Go API examples.
return {
  properties = { greeting = "hello", frames = 0 },
  onCreate = function(self, ctx)
    print(self.greeting .. " from " .. ctx.entity:id())
  end,
  onUpdate = function(self, ctx, dt)
    self.frames = self.frames + 1
    print(string.format("frame %d: %s (dt %.2f)", ctx.frame, self.greeting, dt))
  end,
  onDestroy = function(self, ctx)
    print(self.greeting .. " leaves after " .. self.frames .. " frames")
  end,
}
