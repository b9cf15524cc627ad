-- messages/syntax/not_equals.lua: != gets a hint.
-- want: 4: '!=' is not Lua: write ~=
local hp = 10
if hp != 0 then print(hp) end
