-- messages/syntax/or_or.lua: || gets a hint.
-- want: 4: '||' is not Lua: write or
local a, b = true, false
if a || b then print("either") end
