-- messages/syntax/bang.lua: ! as negation gets a hint.
-- want: 4: '!' is not Lua: write not x
local a = true
if !a then print("no") end
