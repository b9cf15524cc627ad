-- A timer naming a function the script does not have.
return {
  onCreate = function(self, ctx)
    ctx.after(2, "explod")
  end,
  explode = function(self, ctx) ctx.entity:kill() end,
}
-- want: 4:18: error: timer names "explod", which is not a function of the script table; did you mean explode?
