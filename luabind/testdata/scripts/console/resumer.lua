-- An instance that handles "spin" by spinning, and resumes the coroutine
-- a console snippet left in self.co every frame (eval_test.go: what a
-- console snippet causes or makes stays under the console's budget).
return {
  events = {
    spin = function(self, ctx)
      while true do end
    end,
  },
  onUpdate = function(self, ctx)
    if self.co then
      print(coroutine.resume(self.co))
      self.co = nil
    end
  end,
}
