-- Does not compile: line 3.
return {
  onUpdate = = function(self, ctx) end,
}
