-- messages/syntax/times_equals.lua: *= gets a hint.
-- want: 4: '*=' is not Lua: write x = x * 2
local hp = 10
hp *= 2
