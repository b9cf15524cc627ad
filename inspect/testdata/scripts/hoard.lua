-- Holds a million values in its self: reading it for the inspector must
-- cost what the answer shows, not what the self holds (load_test.go).
return {
  onCreate = function(self, ctx)
    local t = {}
    for i = 1, 1000000 do t[i] = i end
    self.hoard = t
  end,
}
