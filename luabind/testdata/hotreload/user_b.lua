-- hotreload/user_b: requires lib.mod and prints its value every frame.
local mod = require("lib.mod")
return {
  onCreate = function(self, ctx)
    self.n = 0
  end,
  onUpdate = function(self, ctx)
    self.n = self.n + 1
    print("b", mod.value, self.n, ctx.frame)
  end,
}
