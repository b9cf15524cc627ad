-- messages/syntax/unclosed_paren.lua: a call whose parenthesis is not
-- closed names the parenthesis and its line.
-- want: 6: ')' expected (to close '(' at line 4) near 'print'
print("a",
  "b"
print("c")
