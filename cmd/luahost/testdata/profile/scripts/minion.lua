-- A spawned entity with a callback of its own, so that it shows in the
-- profile's frames as a script.
return {
  onUpdate = function(self, ctx) end,
}
