-- messages/for_limit.lua: a numeric for whose limit is not a number.
-- want: 6: bad 'for' limit (number expected, got string)
return {
  onCreate = function(self, ctx)
    local n = "many"
    for i = 1, n do print(i) end
  end,
}
