-- cause/argument.lua: passes a function to the registered Go function
-- take; the report wraps runtime.ErrNotPlain.
return {
  onUpdate = function(self, ctx)
    take(1, print)
  end,
}
