-- messages/syntax/unclosed_brace.lua: a missing comma between two fields
-- of the script table: the table is not closed where the next field starts.
-- want: 7: '}' expected (to close '{' at line 4) near 'onUpdate'
return {
  onCreate = function(self, ctx)
  end
  onUpdate = function(self, ctx)
  end,
}
