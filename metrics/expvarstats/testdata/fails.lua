-- fails: its first update raises an error, which faults the instance.
return {
  onUpdate = function(self, ctx, dt) error("out of fuel") end,
}
