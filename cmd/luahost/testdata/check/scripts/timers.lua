-- A timer naming a function the script lacks is an error; the
-- suggestion is among the script's functions.
return {
  onCreate = function(self, ctx)
    ctx.after(2.5, "explod", { radius = 3 })
    ctx.every(0.5, "pulse")
  end,
  explode = function(self, ctx, data) end,
  pulse = function(self, ctx) end,
}
