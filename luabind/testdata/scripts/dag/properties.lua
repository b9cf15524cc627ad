-- dag/properties.lua: properties shared at 2^22 places: the script does
-- not load, quickly.
local dag = require("lib.dag")
return {
  properties = { d = dag(22) },
}
