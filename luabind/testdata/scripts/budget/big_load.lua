-- budget/big_load.lua: compiles 120 KB of source with loadstring.
-- Compiling is charged by the source's size: under a small budget the
-- callback stops at the loadstring, before anything is compiled.
return {
  onUpdate = function(self, ctx)
    local src = string.rep("a = 1\n", 20000)
    local f = loadstring(src)
    print("loaded", type(f))
  end,
}
