-- Ends in the middle of a function.
return {
  onUpdate = function(self, ctx)
    if ctx.frame then
