-- Doubling a string with .. without end.
return {
  onUpdate = function(self, ctx)
    local s = "x"
    while true do
      s = s .. s
    end
  end,
}
