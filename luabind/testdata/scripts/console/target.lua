-- The instance a console snippet runs against (eval_test.go): its self
-- has numbers, a string, a nested table and a vector; it loads one module
-- so that require finds it from the console, and counts its updates.
local counter = require("lib.counter")
return {
  properties = { hp = 10, name = "crate", bag = { 1, 2, gold = 3 } },
  onCreate = function(self, ctx)
    self.at = vec3(1, 2, 3)
    self.updates = 0
    self.counter = counter ~= nil
  end,
  onUpdate = function(self, ctx, dt)
    self.updates = self.updates + 1
  end,
}
