-- the chunk fails on line 3
local settings = nil
return { step = settings.step }
