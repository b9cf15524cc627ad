-- the chunk itself fails
local config = nil
return { speed = config.speed }
