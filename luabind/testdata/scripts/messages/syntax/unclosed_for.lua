-- messages/syntax/unclosed_for.lua: a for without its end.
-- want: 6: 'end' expected (to close 'for' at line 4) near <eof>
local t = {}
for i = 1, 3 do
  t[i] = i
