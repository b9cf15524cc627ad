-- embed/selfish.lua: keeps a function in a table of self, which has no
-- plain form (TestSelfNotPlain).
return {
  onCreate = function(self, ctx)
    self.ok = 1
    self.nested = { helper = function() end }
  end,
}
