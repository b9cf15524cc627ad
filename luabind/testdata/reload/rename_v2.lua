-- reload/rename, version 2: count renamed to total, with the pattern of
-- docs/lua-api.md: rename only while the old field is there, so that the
-- same file saved again (a second reload) migrates nothing.
return {
  onReload = function(self, old, ctx)
    if self.count ~= nil then
      self.total = self.count
      self.count = nil
    end
  end,
  onUpdate = function(self, ctx)
    self.total = self.total + 1
    print("total", self.total, self.count)
  end,
}
