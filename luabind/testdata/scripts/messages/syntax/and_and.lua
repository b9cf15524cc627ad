-- messages/syntax/and_and.lua: && gets a hint.
-- want: 4: '&&' is not Lua: write and
local a, b = true, false
if a && b then print("both") end
