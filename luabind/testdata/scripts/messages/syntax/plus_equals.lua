-- messages/syntax/plus_equals.lua: += gets a hint in the same one-line message.
-- want: 5: '+=' is not Lua: write x = x + 1
return {
  onUpdate = function(self, ctx)
    self.x += 1
  end,
}
