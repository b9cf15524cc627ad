-- A gigabyte in one call is refused before it is built.
return {
  onUpdate = function(self, ctx)
    local s = ("x"):rep(2 ^ 30)
  end,
}
