-- An instance that handles "spin" by spinning (eval_test.go: a handler a
-- console snippet causes stays under the console's budget).
return {
  events = {
    spin = function(self, ctx)
      while true do end
    end,
  },
}
