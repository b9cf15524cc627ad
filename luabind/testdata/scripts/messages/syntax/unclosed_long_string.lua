-- messages/syntax/unclosed_long_string.lua: a long string never closed.
-- want: 5: unfinished long string (starting at line 3) near <eof>
local s = [[
text
