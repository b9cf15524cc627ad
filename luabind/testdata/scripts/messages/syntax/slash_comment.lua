-- messages/syntax/slash_comment.lua: a // comment gets a hint.
-- want: 3: '//' is not Lua: comments start with --; floor division is math.floor(a / b)
local hp = 10 // full health
