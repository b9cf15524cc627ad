-- messages/syntax/unclosed_function.lua: an if missing its end inside a
-- function in the script table: the comma after the function's last end
-- shows the function is not closed.
-- want: 9: 'end' expected (to close 'function' at line 6) near ','
return {
  onUpdate = function(self, ctx)
    if ctx.frame > 3 then
      print("late")
  end,
}
