-- messages/line_concat.lua: a concatenation over several lines fails at
-- the line of its operator.
-- want: 8: attempt to concatenate a nil value (field 'name')
return {
  onCreate = function(self, ctx)
    local msg = "hello, "
      .. "dear "
      .. self.name
    print(msg)
  end,
}
