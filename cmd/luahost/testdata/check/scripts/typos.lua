-- Misspelt fields of the script table: each is reported with a
-- suggestion; an unknown function field (a method) is not.
return {
  priorty = 5,
  propertes = { speed = 1 },
  onUpdte = function(self, ctx, dt) end,
  event = {},
  helper = function(self) end,
}
