-- lib/step.lua, version 2
return { size = 2 }
