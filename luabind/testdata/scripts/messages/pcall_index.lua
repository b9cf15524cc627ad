-- messages/pcall_index.lua: an error caught by pcall names its culprit
-- too; error(err, 0) raises the caught message unchanged.
-- want: 6: attempt to index a nil value (local 't')
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(function() local t; return t.x end)
    assert(not ok)
    error(err, 0)
  end,
}
