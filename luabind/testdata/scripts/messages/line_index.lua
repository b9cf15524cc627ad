-- messages/line_index.lua: in a chain of fields over several lines, the
-- failing index is reported at its own line.
-- want: 9: attempt to index a nil value (field 'speed')
local cfg = {}
return {
  onCreate = function(self, ctx)
    local max = cfg
      .speed
      .max
    print(max)
  end,
}
