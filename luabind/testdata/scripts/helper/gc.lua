-- helper/gc.lua: asks for garbage collections.
return {
  onUpdate = function(self, ctx)
    for _ = 1, 5 do collectgarbage("collect") end
    collectgarbage()
    collectgarbage("step")
  end,
}
