-- messages/syntax/unclosed_while.lua: a while without its end.
-- want: 6: 'end' expected (to close 'while' at line 4) near <eof>
local n = 0
while n < 3 do
  n = n + 1
