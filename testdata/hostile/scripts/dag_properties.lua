-- properties shared at 2^22 places: the script does not
-- load, quickly, and the scene does not start.
local dag = require("lib.dag")
return {
  properties = { d = dag(22) },
}
