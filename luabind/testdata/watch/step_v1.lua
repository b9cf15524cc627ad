-- lib/step.lua, version 1
return { size = 1 }
