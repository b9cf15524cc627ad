-- errors/huge.lua: error() with a 16 MiB message, the largest string a
-- script can build.
return {
  onUpdate = function(self, ctx)
    error(string.rep("x", 16 * 1024 * 1024))
  end,
}
