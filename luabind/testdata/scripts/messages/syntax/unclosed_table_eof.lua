-- messages/syntax/unclosed_table_eof.lua: a table still open at the end
-- of the file names the brace that opened it.
-- want: 7: '}' expected (to close '{' at line 4) near <eof>
return {
  onUpdate = function(self, ctx)
  end,
