-- A chunk of 80,000 distinct numbers (keys of one constructor, which
-- takes at most 25,550 positional items): gopher-lua's compiler searches
-- a function's constants one by one, so compiling it took more than half
-- a minute, outside any budget. It is refused at once, at the line where
-- the compiler's work would pass its bound.
return {
  onUpdate = function(self, ctx)
    local parts = {}
    for i = 1, 80000 do
      parts[i] = "[" .. i .. ".5]=1"
    end
    local src = "return {\n" .. table.concat(parts, ",\n") .. "}"
    local f, err = loadstring(src, "=bomb")
    assert(f == nil, "the bomb compiled")
    error(err, 0)
  end,
}
