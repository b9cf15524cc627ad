-- Doubling a string with gsub forty times would need a terabyte.
return {
  onUpdate = function(self, ctx)
    local s = "x"
    for i = 1, 40 do
      s = s:gsub(".", "%0%0")
    end
  end,
}
