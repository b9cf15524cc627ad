-- helper/empty.lua: a script with no field at all.
return {}
