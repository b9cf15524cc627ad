-- helper/fill.lua: an onCreate that fills a table without end.
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
