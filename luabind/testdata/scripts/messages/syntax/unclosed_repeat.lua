-- messages/syntax/unclosed_repeat.lua: a repeat closed by end instead of
-- until.
-- want: 7: 'until' expected (to close 'repeat' at line 5) near 'end'
local n = 0
repeat
  n = n + 1
end
