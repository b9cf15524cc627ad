-- hostile/hoard_module.lua: like hoard.lua, but the growing table is the
-- script's own upvalue, shared by all its instances: the ceiling faults
-- every instance of the script.
local kept = {}
return {
  onUpdate = function(self, ctx)
    kept[#kept + 1] = ("x"):rep(2 ^ 23)
  end,
}
