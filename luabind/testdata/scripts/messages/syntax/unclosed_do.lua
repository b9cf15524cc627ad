-- messages/syntax/unclosed_do.lua: a do block without its end.
-- want: 6: 'end' expected (to close 'do' at line 3) near <eof>
do
  local x = 1
  print(x)
