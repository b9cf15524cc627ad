-- A module for require.lua: counts how often its chunk runs and returns a
-- table.
loads_of_counter = (loads_of_counter or 0) + 1
local M = {name = ...}
function M.double(x) return 2 * x end
return M
