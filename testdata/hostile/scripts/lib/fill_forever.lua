-- An onCreate that fills a table without end: the nested callback of
-- nested_fill.
return {
  onCreate = function(self, ctx)
    local t = {}
    local i = 0
    while true do
      i = i + 1
      t[i] = { i }
    end
  end,
}
