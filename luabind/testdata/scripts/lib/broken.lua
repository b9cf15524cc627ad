-- lib/broken.lua: a module whose code fails.
local t = nil
return t.field
