-- messages/syntax/plus_plus.lua: ++ gets a hint.
-- want: 4: '++' is not Lua: write x = x + 1
local n = 0
n++
