-- Compiles, but its top-level code fails on line 3.
local x = 1
local y = x + nil
return {}
