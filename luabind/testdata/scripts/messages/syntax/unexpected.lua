-- messages/syntax/unexpected.lua: a symbol that cannot start an
-- expression.
-- want: 4: unexpected symbol near '='
local a = = 1
