-- lib/counter.lua: a module that counts how often its code runs in a
-- state (in a global of that state) and returns its name.
counter_loads = (counter_loads or 0) + 1
local name = ...
return { loads = counter_loads, name = name }
