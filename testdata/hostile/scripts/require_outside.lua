-- require follows no link out of the script folder: lib/outside.lua links
-- to a file beside the folder, and requiring it is refused by name.
return {
  onUpdate = function(self, ctx)
    local secret = require("lib.outside")
    print("read a file outside the script folder:", secret)
  end,
}
