-- messages/syntax/minus_equals.lua: -= gets a hint.
-- want: 4: '-=' is not Lua: write x = x - 1
local hp = 10
hp -= 1
