-- returns nothing
local t = {}
